/**
 * \file
 * hes/problems.h - the built-in problems: impacts, integrators, ESS models
 * (part of <hes.h>, which includes every area's header).
 */
#ifndef HES_H_PROBLEMS
#define HES_H_PROBLEMS

#include <hes/invdyn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------- built-in impact problems */
/**
 * A simultaneous impact to resolve: a mechanical system, its active
 * contacts (constraint indices; each with mu and J_t), the pre-impact
 * configuration and velocity, and the paper's parameters for its outcome
 * set (Appendix A, Tables 4-8, and the authors' Results.m).  Built-ins:
 * rocking-block, compass-gait-impact, box-wall, disk-stack.
 */
typedef struct {
    const char *name;       /**< the problem's name */
    const char *description; /**< one line */
    const hes_mech *mech;   /**< the mechanical system */
    int k;                  /**< the number of active contacts */
    const int *contacts;    /**< their constraint indices in mech */
    /** q, v (mech->d each) just before the impact (data: mech->data) */
    int (*pre_impact)(double *q, double *v, void *data);
    double h;               /**< the paper's step size */
    int steps;              /**< the paper's trajectory length N */
    int samples;            /**< the default number of samples */
} hes_impact_problem;

/** The built-in impact problems: their count, problem i, and lookup by name (NULL
 * out of range or for an unknown name). @{ */
int hes_impact_problem_count(void);
const hes_impact_problem *hes_impact_problem_get(int i);
const hes_impact_problem *hes_impact_problem_find(const char *name);
/** @} */

/** The contact set of a mechanical system at configuration q: M(q) (d x d),
 * J_n (k x d, from the constraints' Da, or fourth-order differences of a),
 * J_t (k x d, the constraints' Jt rows; zero for frictionless ones) and mu
 * (k), all column-major, for the constraints idx[0..k-1].  HES_EINVAL
 * (reason in err) for a bad index, a frictional constraint without Jt or
 * a failing callback; HES_ENOMEM when its work array cannot be allocated. */
hes_status hes_mech_contacts(const hes_mech *mech, const double *q, const double *p, int k,
                             const int *idx, double *M, double *Jn, double *Jt, double *mu,
                             hes_error *err);

/** An impact problem set up: its pre-impact state and its contact set,
 * whose pointers point into the arrays here; the arrays are the
 * setup's, sized by the problem, freed by hes_impact_setup_free. */
typedef struct {
    /** the numbers of coordinates and of contacts @{ */
    int d, k;
    /** @} */
    /** the pre-impact configuration (hes_mech_nq values) and velocity (d) @{ */
    double *q, *v;
    /** @} */
    /** M(q) (d x d), J_n and J_t (k x d) and mu (k), as hes_mech_contacts gives them @{ */
    double *M, *Jn, *Jt, *mu;
    /** @} */
    hes_contact_set contacts; /**< the contact set, pointing into the arrays above */
} hes_impact_setup;
/** Sets up a built-in impact problem: its pre-impact state and contact set into
 * *out (its arrays allocated: hes_impact_setup_free; on failure none);
 * HES_EINVAL (err) when its pre-impact state fails or as hes_mech_contacts. */
hes_status hes_impact_problem_setup(const hes_impact_problem *pb, hes_impact_setup *out,
                                    hes_error *err);
/** The same for any mechanical system, its contacts (constraint indices)
 * and a pre-impact state (q, v: d each), e.g.\ a robot's
 * (hes_robot_mech). */
hes_status hes_impact_setup_state(const hes_mech *mech, int k, const int *contacts,
                                  const double *q, const double *v, hes_impact_setup *out,
                                  hes_error *err);
/** Frees a setup's arrays and clears it (NULL: nothing). */
void hes_impact_setup_free(hes_impact_setup *s);


/* ------------------------------------------------- choosing the integrator */

/** How a trajectory is integrated (`hes simulate --integrator NAME`): the
 * event-driven hybrid pipeline of lib/hybrid ("event": modes, guards,
 * resets, saltation) or the ESS integrator above ("ess").  A problem is
 * one or the other: built-in hes_model problems take "event", built-in
 * ESS problems (hes_ess_problem_find) take "ess". */
typedef enum {
    HES_SIM_EVENT = 0,  /**< "event": the event-driven hybrid pipeline */
    HES_SIM_ESS = 1     /**< "ess": the ESS integrator */
} hes_sim_method;
const char *hes_sim_method_name(hes_sim_method method);  /**< NULL if unknown */
/** HES_EINVAL for an unknown name (or a NULL argument). */
hes_status hes_sim_method_from_name(const char *name, hes_sim_method *method);

/* ------------------------------------------------------------ ESS problems */

/** The built-in ESS models (problems/): lookup by name, count, index.
 * "hopper-1d": the paper's undamped 1-D hopper, state (y, v), parameters
 * g, k, mass, l0; flight y'' = -g, stance y'' = -g + (k / mass)(l0 - y);
 * h_1 = l0 - y (touchdown, live while v < 0), h_2 = y - l0 (liftoff, live
 * while v > 0); stance when s_1 = +1 and s_2 = -1, flight otherwise (the
 * fields agree at y = l0). @{ */
const hes_ess_model *hes_ess_problem_find(const char *name);
int hes_ess_problem_count(void);
const hes_ess_model *hes_ess_problem_get(int i);
/** @} */

/** "plate-springs": the plate of the ESS paper's Sec.\ 5.2 (problems/
 * plate_springs.c): a plate in SE(2), state (x, z, theta, vx, vz, omega),
 * falling under gravity onto N legs evenly spaced over [-a, a], each a
 * spring K/N and damper C/N under a frictionless roller of radius rho with
 * its top at l0 (parameters g, mass, inertia, K, C, l0, a, rho).  With
 * p_i = rho - (z - l0 + rho) cos theta - (xi - x) sin theta the roller's
 * penetration along the plate's normal, leg i pushes with
 * F_i = (K p_i + C p_i') / N along the normal while p_i > 0 and F_i > 0
 * (the law the MuJoCo benchmark integrates); events 2i (touchdown,
 * h = p_i) and 2i + 1 (liftoff, h = -(p_i + (C/K) p_i')).  m = 2N depends
 * on N: the registry's "plate-springs" has N = 10;
 * hes_plate_springs_model(N) allocates the model for N from 1 to
 * HES_PLATE_SPRINGS_MAX_N (NULL outside or without memory), and
 * hes_ess_model_destroy releases it.  The model must outlive its
 * integrators. @{ */
#define HES_PLATE_SPRINGS_MAX_N 5000
hes_ess_model *hes_plate_springs_model(int N);
/** @} */

/** "plate-vertical": the plate exactly as the ESS paper's Sec.\ 5.2 states it
 * (problems/plate_vertical.c): state (x, z, theta, vx, vz, omega), mass 1,
 * inertia 0.1875, g 9.81 (parameters g, mass, inertia, K = 2000, C = 10,
 * a = 0.5); N vertical legs at x_i = linspace(-a, a, N), tips at height 0;
 * pen_i = -(z + (x_i - x) tan theta); while pen_i > 0 the leg pushes with
 * F_i = k pen_i + b pen_i' (k = K/N, b = C/N, not clamped), generalised force
 * sum F_i (-tan theta, 1, (x_i - x) sec^2 theta).  Events i (touchdown i,
 * h = pen_i) and N + i (liftoff i, h = -pen_i); stance iff s_i = +1 and
 * s_{N+i} = -1.  The registry's "plate-vertical" has N = 10;
 * hes_plate_vertical_model(N) as plate-springs' above. @{ */
#define HES_PLATE_VERTICAL_MAX_N 5000
hes_ess_model *hes_plate_vertical_model(int N);
/** @} */

/** The hopper's closed form: the state out[2] at time t from x0 = (y, v) at
 * time 0 (p: g, k, mass, l0; NULL: the defaults): ballistic parabolas above
 * l0, harmonic oscillations about l0 - mass g / k below, joined at y = l0.
 * HES_EINVAL for t < 0, non-finite input or non-positive parameters. */
hes_status hes_hopper_1d_exact(const double *p, double t, const double *x0, double *out);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_PROBLEMS */
