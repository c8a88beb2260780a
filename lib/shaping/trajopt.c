/*
 * trajopt.c - hes_trajopt_run: the trajectory-optimisation pipeline of
 * `hes trajopt` (core paper problem (8)) on the public collocation API
 * (lib/shaping/collocation.c) and the gait's derived model (gait.c):
 *
 *   1. collocate the orbit (from the model's guess or a gait) and solve the
 *      constraints for a feasible start;
 *   2. minimise the objective (psi, the input energy, both, or none);
 *   2b. with further grids (mesh continuation), re-collocate the result on
 *      each in turn and minimise again from it: the optimiser's psi becomes
 *      that of a grid which resolves it (on the coarse grid it can profit
 *      from the discretisation error, which differs between the multipliers
 *      it drives together);
 *   3. with inputs or virtual events, re-collocate the result on a grid
 *      `refine` times as fine with its inputs and virtual offsets held: the
 *      same gait, its states and psi more accurate (the optimiser may have
 *      used the coarse grid's discretisation error: the fine psi is the
 *      honest one);
 *   4. re-analyse the gait independently by shooting through its derived
 *      model (orbit found again, multipliers from CVODES sensitivities) and
 *      compare the collocation's return map with the shooting one.
 *
 * Any state dimension; every array is allocated to size.  Also the names of
 * the collocation objectives (hes_colloc_objective_name/_from_name).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shaping/colloc_internal.h"

static const char *const objective_names[] = { "feasible", "energy", "stability", "weighted" };
#define N_OBJECTIVES ((int)(sizeof objective_names / sizeof objective_names[0]))

const char *hes_colloc_objective_name(hes_colloc_objective objective)
{
    return (int)objective >= 0 && (int)objective < N_OBJECTIVES ? objective_names[objective]
                                                                : NULL;
}

hes_status hes_colloc_objective_from_name(const char *name, hes_colloc_objective *objective)
{
    int i = hes__name_index(objective_names, N_OBJECTIVES, name);
    if (i < 0 || !objective)
        return HES_EINVAL;
    *objective = (hes_colloc_objective)i;
    return HES_OK;
}

void hes_trajopt_options_init(hes_trajopt_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->objective = HES_COLLOC_STABILITY;
    o->weight = 1.0;
    o->measure = HES_MEASURE_PSI;
    o->smooth_weight = 1e-3;
    o->psi_floor = 0.0;
    o->psi_floor_smoothing = HES_COLLOC_FLOOR_SMOOTHING;
    o->nodes = 21;
    o->maxeval = 1000;
    o->refine = 2;
    o->jobs = 1;
    o->starts = 1;
    o->seed = 1;
    o->start_spread = 0.01;
}

static int has_virtual(const hes_model *m, const int *counts)
{
    for (int i = 0; counts && i < m->orbit.n_sequence; i++)
        if (counts[i] > 0)
            return 1;
    return 0;
}

/* Checks the options against the model; HES_OK or HES_EINVAL with the
 * message in the system. */
static hes_status check_options(hes_system *sys, const hes_trajopt_options *o)
{
    const hes_model *m = sys->model;
    const hes_trajopt_spec *spec = m->trajopt;
    int n_inputs = spec ? spec->n_inputs : 0;

    if (!m->orbit.guess || m->orbit.n_sequence < 1)
        return hes__fail(sys, HES_EINVAL, "problem '%s' has no orbit to collocate", m->name);
    if (!hes_colloc_objective_name(o->objective))
        return hes__fail(sys, HES_EINVAL, "trajopt: unknown objective %d", (int)o->objective);
    if (!hes_measure_name(o->measure))
        return hes__fail(sys, HES_EINVAL, "trajopt: unknown measure %d", (int)o->measure);
    if ((o->objective == HES_COLLOC_ENERGY || o->objective == HES_COLLOC_WEIGHTED) && n_inputs == 0)
        return hes__fail(sys, HES_EINVAL, "problem '%s' has no inputs, so no energy cost", m->name);
    if (!(o->weight >= 0) || !isfinite(o->weight) || !(o->smooth_weight >= 0) ||
        !isfinite(o->smooth_weight) || !(o->psi_floor >= 0) || !isfinite(o->psi_floor) ||
        !(o->psi_floor_smoothing >= 0) || !isfinite(o->psi_floor_smoothing) ||
        !(o->psi_smoothing >= 0) || !isfinite(o->psi_smoothing))
        return hes__fail(sys, HES_EINVAL, "trajopt: the weight, smooth weight, psi floor, its "
                         "smoothing and psi's smoothing must be finite numbers >= 0");
    if (o->psi_smoothing > 0 && o->measure == HES_MEASURE_SMOOTH)
        return hes__fail(sys, HES_EINVAL, "trajopt: psi_smoothing smooths psi's kinks; the "
                         "smooth measure has none");
    if (o->nodes < 3 || o->maxeval < 1 || o->refine < 1)
        return hes__fail(sys, HES_EINVAL, "trajopt: need nodes >= 3, maxeval >= 1 and refine >= 1 "
                         "(got %d, %d, %d)", o->nodes, o->maxeval, o->refine);
    if (o->n_finer < 0 || o->n_finer > HES_TRAJOPT_MAX_GRIDS - 1 ||
        (o->n_finer > 0 && !o->finer_nodes))
        return hes__fail(sys, HES_EINVAL, "trajopt: 0 to %d further grids, each with its nodes",
                         HES_TRAJOPT_MAX_GRIDS - 1);
    if (o->starts < 1 || o->starts > HES_TRAJOPT_MAX_STARTS)
        return hes__fail(sys, HES_EINVAL, "trajopt: need 1 to %d starts (got %d)",
                         HES_TRAJOPT_MAX_STARTS, o->starts);
    if (!(o->start_spread >= 0 && o->start_spread <= 1) ||
        (o->starts > 1 && !(o->start_spread > 0)))
        return hes__fail(sys, HES_EINVAL, "trajopt: the starts' spread must be in (0, 1] "
                         "(got %g)", o->start_spread);
    if (o->jobs > HES_COLLOC_MAX_JOBS)
        return hes__fail(sys, HES_EINVAL, "trajopt: at most %d jobs (got %d)",
                         HES_COLLOC_MAX_JOBS, o->jobs);
    if (o->starts > 1 && o->objective == HES_COLLOC_FEASIBLE)
        return hes__fail(sys, HES_EINVAL, "trajopt: several starts need a cost to compare them "
                         "by (not the feasible objective)");
    for (int k = 0; o->finer_maxeval && k < o->n_finer; k++)
        if (o->finer_maxeval[k] < 1)
            return hes__fail(sys, HES_EINVAL, "trajopt: need maxeval >= 1 on every further grid "
                             "(got %d on grid %d)", o->finer_maxeval[k], k + 2);
    for (int k = 0; k < o->n_finer; k++)
        if (o->finer_nodes[k] <= (k ? o->finer_nodes[k - 1] : o->nodes))
            return hes__fail(sys, HES_EINVAL, "trajopt: each further grid needs more nodes than "
                             "the one before (%d after %d)", o->finer_nodes[k],
                             k ? o->finer_nodes[k - 1] : o->nodes);
    if (o->n_design < 0 || o->n_design > HES_COLLOC_MAX_DESIGN ||
        (o->n_design > 0 && (!o->design || !o->design_lo || !o->design_hi)))
        return hes__fail(sys, HES_EINVAL, "trajopt: need 0 to %d design parameters, each with "
                         "its bounds", HES_COLLOC_MAX_DESIGN);
    if (o->n_bounds < 0 || (o->n_bounds > 0 && (!o->bound_states || !o->bound_lo || !o->bound_hi)))
        return hes__fail(sys, HES_EINVAL, "trajopt: every bounded state needs its name and bounds");
    for (int i = 0; o->virtual_events && i < m->orbit.n_sequence; i++)
        if (o->virtual_events[i] < 0)
            return hes__fail(sys, HES_EINVAL, "trajopt: virtual event counts must be >= 0");
    return HES_OK;
}

/* The first state's bounds: the model's, with the named states of the
 * options replacing theirs (lo, hi: dim values each). */
static hes_status state_bounds(hes_system *sys, const hes_trajopt_options *o,
                               const hes_colloc_options *co, double *lo, double *hi)
{
    const hes_model *m = sys->model;
    const hes_mode *m0 = &m->modes[m->orbit.mode];

    if (!m0->state_names)
        return hes__fail(sys, HES_EINVAL, "bounds on the first state need named states (mode "
                         "'%s' has none)", m0->name);
    for (int r = 0; r < m0->dim; r++) {
        lo[r] = co->x0_lo ? co->x0_lo[r] : -HUGE_VAL;
        hi[r] = co->x0_hi ? co->x0_hi[r] : HUGE_VAL;
    }
    for (int j = 0; j < o->n_bounds; j++) {
        int r = 0;
        while (r < m0->dim && (!o->bound_states[j] ||
                               strcmp(m0->state_names[r], o->bound_states[j]) != 0))
            r++;
        if (r == m0->dim)
            return hes__fail(sys, HES_EINVAL, "bounds on the first state: mode '%s' has no state '%s'", m0->name,
                             o->bound_states[j] ? o->bound_states[j] : "(null)");
        lo[r] = o->bound_lo[j];
        hi[r] = o->bound_hi[j];
    }
    return HES_OK;
}

/* The design parameters: the options', or without them (and without
 * inputs) for the psi objectives every shape parameter with search bounds. */
static hes_status choose_design(hes_system *sys, const hes_trajopt_options *o,
                                hes_trajopt_result *r, const char **names)
{
    const hes_model *m = sys->model;
    const hes_trajopt_spec *spec = m->trajopt;
    int uses_psi = o->objective == HES_COLLOC_STABILITY || o->objective == HES_COLLOC_WEIGHTED;
    int n = 0;

    r->design = malloc(sizeof(int) * HES_COLLOC_MAX_DESIGN);
    r->design_lo = malloc(sizeof(double) * HES_COLLOC_MAX_DESIGN);
    r->design_hi = malloc(sizeof(double) * HES_COLLOC_MAX_DESIGN);
    if (!r->design || !r->design_lo || !r->design_hi)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    if (o->n_design > 0) {
        for (; n < o->n_design; n++) {
            names[n] = o->design[n];
            r->design[n] = o->design[n] ? hes_model_param_index(m, o->design[n]) : -1;
            r->design_lo[n] = o->design_lo[n];
            r->design_hi[n] = o->design_hi[n];
        }
    } else if (uses_psi && !(spec && spec->n_inputs > 0)) {
        for (int i = 0; i < m->n_params && n < HES_COLLOC_MAX_DESIGN; i++) {
            const hes_param *pp = &m->params[i];
            if ((pp->flags & HES_PARAM_SHAPE) && (pp->search_lo != 0 || pp->search_hi != 0)) {
                names[n] = pp->name;
                r->design[n] = i;
                r->design_lo[n] = pp->search_lo;
                r->design_hi[n] = pp->search_hi;
                n++;
            }
        }
    }
    r->n_design = n;
    return HES_OK;
}

/* Steps 1, 2 and 2b on grid k (co->nodes): the collocation from the model's
 * guess or the start gait (k = 0) or the previous grid's gait (r->gait,
 * replaced), its constraints solved, the objective minimised; fills the
 * grid's record and the result's collocation fields, and the return map. */
static hes_status optimise_grid(hes_system *sys, const hes_trajopt_options *o,
                                const hes_colloc_options *co, const char **names, int k,
                                int start, hes_trajopt_result *r, double *rest)
{
    double t0 = hes__monotonic_seconds(), *z = NULL;
    hes_colloc *col = NULL;
    hes_colloc_result res;
    hes_gait g;
    int have_gait = 0;
    hes_nlp_solver asked = o->solver;
    hes_status st = hes_colloc_new(sys, co, &col);
    if (st == HES_OK)
        st = hes_colloc_set_design(col, r->n_design, names, r->design_lo, r->design_hi);
    /* one solver for every program of a grid (the feasible start shapes the
       minimisation's path): as asked, else by the objective and size.  A
       further grid starts from an optimum: the hybrid's full-space rounds
       are for a far start, and IPOPT moves a start off its active bounds
       (the SLIP continued from 21 to 41 nodes, thetadot at its bound 1:
       psi 0.6654 by IPOPT against 0.66236 by SLSQP), so unless a solver was
       named the reduced space refines it where it applies */
    if (st == HES_OK && k > 0 && (asked == HES_NLP_HYBRID || asked == HES_NLP_DEFAULT) &&
        hes__colloc_reduced_applies(col))
        asked = HES_NLP_REDUCED;
    if (st == HES_OK)
        col->solver = hes__nlp_solver_for(asked, o->objective, hes_colloc_nvars(col));
    if (st == HES_OK && !(z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(col))))
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK)
        st = k > 0 ? hes_colloc_from_gait(col, &r->gait, z)
                   : o->init ? hes_colloc_from_gait(col, o->init, z) : hes_colloc_guess(col, z);
    if (st == HES_OK && k == 0 && start > 0) /* another start: another path */
        st = hes__colloc_perturb(col, z, o->start_spread, o->seed, start);
    if (st == HES_OK)
        st = hes_colloc_solve(col, z, 1e-9, &r->violation);
    if (st == HES_OK)
        st = hes_colloc_minimize(col, z, o->objective, o->weight, 1e-9,
                                 k > 0 && o->finer_maxeval ? o->finer_maxeval[k - 1] : o->maxeval,
                                 &res);
    if (st == HES_OK && (st = hes_colloc_gait(col, z, &g)) == HES_OK)
        have_gait = 1;
    if (st == HES_OK)
        st = hes_colloc_return_map(col, z, r->return_map);
    if (st == HES_OK)
        *rest = hes__colloc_input_cost(col, o->objective, o->weight, z);
    if (st != HES_OK && st != HES_ENOMEM && k > 0) { /* the stage, for the user */
        char why[sizeof sys->errmsg];
        snprintf(why, sizeof why, "%s", hes_system_errmsg(sys));
        st = hes__fail(sys, st, "the further grid of %d nodes per phase: %s", co->nodes, why);
    }
    if (st == HES_OK) {
        hes_trajopt_grid *gr = &r->grids[r->n_grids++];
        gr->nodes = co->nodes;
        gr->variables = hes_colloc_nvars(col);
        gr->solver = col->solver;
        gr->evaluations = res.evaluations;
        gr->psi = res.psi;
        gr->energy = co->n_inputs > 0 ? res.energy : NAN;
        gr->seconds = hes__monotonic_seconds() - t0;
        r->nodes = co->nodes;
        r->solver = col->solver;
        r->variables = gr->variables;
        r->constraints = hes_colloc_ncons(col);
        r->path_constraints = hes_colloc_nineq(col);
        r->psi_collocation = res.psi;
        r->cost = res.cost;
        r->energy = res.energy;
        r->violation = res.violation;
        r->evaluations += res.evaluations;
        r->fallbacks += res.fallbacks;
        hes_gait_free(&r->gait);
        r->gait = g;
    } else if (have_gait) {
        hes_gait_free(&g);
    }
    free(z);
    hes_colloc_destroy(col);
    return st;
}

/* Step 3: the gait re-collocated `factor` times as fine with its inputs and
 * virtual offsets held; replaces r->gait and the map. */
static hes_status refine_gait(hes_system *sys, const hes_trajopt_options *o,
                              const hes_colloc_options *co, const char **names, int factor,
                              hes_trajopt_result *r, double *rest)
{
    hes_nlp_solver asked = o->solver;
    hes_colloc_options fine = *co;
    /* a feasibility problem of its own, several times larger: its solver is
     * the one asked for, else the default for feasibility at its size
     * (IPOPT when built: dense SLSQP took half the knee biped's HES run) */
    fine.solver = asked;
    hes_colloc *c = NULL;
    double *z = NULL, viol;
    hes_gait g;
    fine.refine = factor;
    fine.fix_inputs = 1; /* also leaves out the bounds and path constraints */
    fine.progress = NULL;
    hes_status st = hes_colloc_new(sys, &fine, &c);
    if (st == HES_OK)
        st = hes_colloc_set_design(c, r->n_design, names, r->design_lo, r->design_hi);
    if (st == HES_OK && !(z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c))))
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK)
        st = hes_colloc_from_gait(c, &r->gait, z);
    if (st == HES_OK)
        st = hes_colloc_solve(c, z, 1e-10, &viol);
    if (st == HES_OK)
        st = hes_colloc_psi(c, z, &r->psi_refined, NULL, NULL);
    if (st == HES_OK)
        st = hes_colloc_return_map(c, z, r->return_map);
    if (st == HES_OK)
        st = hes_colloc_gait(c, z, &g);
    if (st != HES_OK && st != HES_ENOMEM) { /* the stage, for the user */
        char why[sizeof sys->errmsg];
        snprintf(why, sizeof why, "%s", hes_system_errmsg(sys));
        st = hes__fail(sys, st, "the refinement (%d times as many intervals, inputs held; "
                       "refine 1 skips it): %s", factor, why);
    }
    if (st == HES_OK) {
        *rest = hes__colloc_input_cost(c, o->objective, o->weight, z);
        r->refined_nodes = factor * (co->nodes - 1) + 1;
        r->energy = g.energy;
        r->violation = viol;
        hes_gait_free(&r->gait);
        r->gait = g;
    }
    free(z);
    hes_colloc_destroy(c);
    return st;
}

/* Step 4: the gait as a model of its own, its orbit found again by
 * shooting and its multipliers from CVODES sensitivities. */
/* The gait's orbit by shooting on its derived model, with the caller's
 * settings.  HES_EMODEL when the model's supplied Jacobians disagree with
 * differences of its callbacks at that orbit (settings.check_derivatives):
 * the collocation used them too, so the run fails; any other failure leaves
 * the result "collocation only". */
static hes_status reanalyse(const hes_model *base, const hes_settings *set, hes_measure measure,
                            double *measure_shooting, hes_trajopt_result *r)
{
    hes_status fatal = HES_OK;
    hes_settings own = *set;
    own.check_derivatives = 0; /* checked below, after the analysis */
    hes_model *dm = NULL;
    hes_system *sys = NULL;
    hes_analysis res;
    char *msg = r->shooting_message;
    size_t len = sizeof r->shooting_message;

    r->have_shooting = 0;
    hes_error e;
    r->shooting_status = hes__err_pass(hes_gait_model(&r->gait, base, &dm, &e), &e, msg, len);
    if (r->shooting_status == HES_OK)
        r->shooting_status = hes__err_pass(hes_system_new(dm, &sys, &e), &e, msg, len);
    if (r->shooting_status == HES_OK && (r->shooting_status = hes_system_set_settings(sys, &own)) != HES_OK)
        snprintf(msg, len, "%s", hes_system_errmsg(sys));
    if (r->shooting_status == HES_OK) {
        r->shooting_status = hes_analyze(sys, 0, &res);
        if (r->shooting_status == HES_OK && set->check_derivatives) {
            own.check_derivatives = 1;
            hes_system_set_settings(sys, &own);
            if ((fatal = hes__analysis_check_jacobians(sys, &res)) != HES_OK) {
                snprintf(msg, len, "%s", hes_system_errmsg(sys));
                r->shooting_status = fatal;
                hes_analysis_free(&res);
            }
        }
        if (r->shooting_status == HES_OK) {
            r->psi_shooting = res.stab.psi;
            *measure_shooting = hes__measure(res.stab.abs, res.stab.n_mult, measure, NULL);
            r->verdict = res.stab.verdict;
            r->psi_tol = res.stab.psi_tol;
            r->have_shooting = 1;
            double num = 0, den = 0;
            for (int k = 0; res.mono.proj && k < r->n * r->n; k++) {
                num = fmax(num, fabs(r->return_map[k] - res.mono.proj[k]));
                den = fmax(den, fabs(res.mono.proj[k]));
            }
            r->return_map_difference = den > 0 && res.mono.n == r->n ? num / den : NAN;
            r->psi_difference = fabs(r->psi_shooting - r->gait.psi) / r->psi_shooting;
            r->unresolved = r->psi_difference > HES_TRAJOPT_GRID_TOL;
            hes_analysis_free(&res);
        } else {
            snprintf(msg, len, "%s", hes_system_errmsg(sys));
        }
    }
    hes_system_destroy(sys);
    hes_model_destroy(dm);
    return fatal;
}

/* An empty result: nothing set, its numbers NaN. */
static void result_init(hes_trajopt_result *r)
{
    memset(r, 0, sizeof *r);
    r->psi_collocation = r->psi_refined = r->psi_shooting = NAN;
    r->return_map_difference = r->psi_difference = r->cost = r->cost_shooting = NAN;
}

/* One start of the pipeline (start 0: from the start as given) with
 * checked options: steps 1 to 4 into r, which is freed on failure. */
static hes_status run_start(hes_system *sys, const hes_trajopt_options *opts, int start,
                            hes_trajopt_result *r)
{
    result_init(r);
    hes_trajopt_options o = *opts;
    hes_status st = HES_OK;
    double rest = NAN, measure_shooting = NAN;

    const hes_model *m = sys->model;
    const hes_trajopt_spec *spec = m->trajopt;
    int dim = m->modes[m->orbit.mode].dim;
    const char *names[HES_COLLOC_MAX_DESIGN];
    double *x0_lo = NULL, *x0_hi = NULL, t0 = hes__monotonic_seconds();

    hes_colloc_options co;

    hes_colloc_options_init(&co);
    co.nodes = o.nodes;
    co.virtual_events = o.virtual_events;
    co.constant_inputs = o.constant_inputs;
    co.smooth_weight = o.smooth_weight;
    co.psi_floor = o.psi_floor;
    co.measure = o.measure;
    co.progress = o.progress;
    co.progress_ctx = o.progress_ctx;
    co.jobs = o.jobs;

    if (spec) {
        co.n_inputs = spec->n_inputs;
        co.inputs = spec->inputs;
        co.input_lo = spec->input_lo;
        co.input_hi = spec->input_hi;
        co.x0_lo = spec->x0_lo;
        co.x0_hi = spec->x0_hi;
        co.min_duration = spec->min_duration;
        co.max_duration = spec->max_duration;
        co.path = 1;
    }
    r->n = dim;
    r->objective = o.objective;
    r->weight = o.weight;
    r->return_map = malloc(sizeof(double) * (size_t)dim * (size_t)dim);
    if (!r->return_map)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK && o.n_bounds > 0) {
        x0_lo = malloc(sizeof(double) * (size_t)dim);
        x0_hi = malloc(sizeof(double) * (size_t)dim);
        st = x0_lo && x0_hi ? state_bounds(sys, &o, &co, x0_lo, x0_hi)
                            : hes__fail(sys, HES_ENOMEM, "out of memory");
        co.x0_lo = x0_lo;
        co.x0_hi = x0_hi;
    }
    if (st == HES_OK)
        st = choose_design(sys, &o, r, names);
    /* 1-2b. on each grid: the collocation, a feasible start (from the
       previous grid's gait), the objective */
    for (int k = 0; st == HES_OK && k <= o.n_finer; k++) {
        co.nodes = k ? o.finer_nodes[k - 1] : o.nodes;
        /* a finer grid starts at the coarser one's optimum: the psi floor's
           kink is smoothed there only a little (a tenth: usually one round),
           where the first grid's widest smoothing would move the gait from
           it for nothing */
        co.psi_floor_smoothing = k ? o.psi_floor_smoothing / 10 : o.psi_floor_smoothing;
        co.psi_smoothing = k ? o.psi_smoothing / 10 : o.psi_smoothing;
        st = optimise_grid(sys, &o, &co, names, k, start, r, &rest);
    }
    /* 3. the refinement */
    if (st == HES_OK && o.refine > 1 && (co.n_inputs > 0 || has_virtual(m, o.virtual_events)))
        st = refine_gait(sys, &o, &co, names, o.refine, r, &rest);
    r->seconds = hes__monotonic_seconds() - t0;
    free(x0_lo);
    free(x0_hi);
    if (st == HES_OK && !(r->gait.objective = strdup(objective_names[o.objective])))
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st != HES_OK) { /* the result empty but for its record */
        hes_trajopt_result_free(r);
        r->starts[0].status = st;
        snprintf(r->starts[0].message, sizeof r->starts[0].message, "%s",
                 hes_system_errmsg(sys));
        return st;
    }
    r->gait.psi = r->refined_nodes ? r->psi_refined : r->psi_collocation;
    for (int i = 0; i < r->gait.n_phases; i++)
        r->period += r->gait.phases[i].duration;
    if (!spec || spec->n_inputs == 0)
        r->energy = NAN;
    /* 4. the independent check, and the cost with psi by shooting */
    hes_settings set = hes_system_get_settings(sys);
    if ((st = reanalyse(m, &set, o.measure, &measure_shooting, r)) != HES_OK) {
        hes__fail(sys, st, "%s", r->shooting_message);
        hes_trajopt_result_free(r);
        r->starts[0].status = st;
        snprintf(r->starts[0].message, sizeof r->starts[0].message, "%s",
                 hes_system_errmsg(sys));
        return st;
    }
    int psi = o.objective == HES_COLLOC_STABILITY || o.objective == HES_COLLOC_WEIGHTED;
    if (r->have_shooting && (!psi || isfinite(measure_shooting)))
        r->cost_shooting = psi ? rest + fmax(measure_shooting, o.psi_floor) : rest;
    r->n_starts = 1;
    hes_trajopt_start *e = &r->starts[0]; /* this start's record */
    e->status = HES_OK;
    e->have_shooting = r->have_shooting;
    e->cost = r->cost;
    e->cost_shooting = r->cost_shooting;
    e->psi_shooting = r->have_shooting ? r->psi_shooting : NAN;
    e->energy = r->energy;
    e->evaluations = r->evaluations;
    e->seconds = r->seconds;
    return HES_OK;
}

/* Several starts: each on its own system (start 0 on the caller's, with
 * the progress reports), the starts t, t + threads, ... on thread t, each
 * result with its own record in starts[0]. */
typedef struct {
    hes_system **sys;            /* per start: the caller's, then copies */
    const hes_trajopt_options *o;
    hes_trajopt_result *results;
    int first, step;
} start_job;

static void *run_starts(void *arg)
{
    start_job *j = arg;
    hes_trajopt_options o = *j->o;
    o.jobs = 1;                  /* the threads run the starts */
    for (int s = j->first; s < o.starts; s += j->step) {
        if (s > 0)
            o.progress = NULL;
        run_start(j->sys[s], &o, s, &j->results[s]);
    }
    return NULL;
}

hes_status hes_trajopt_run(hes_system *sys, const hes_trajopt_options *opts,
                           hes_trajopt_result *r)
{
    if (!r)
        return sys ? hes__fail(sys, HES_EINVAL, "hes_trajopt_run: no result to fill") : HES_EINVAL;
    result_init(r);
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_trajopt_run");
    if (hes__refuse_charts(sys, "trajectory optimisation (direct collocation)") != HES_OK)
        return HES_EINVAL;
    hes_trajopt_options o;
    if (opts)
        o = *opts;
    else
        hes_trajopt_options_init(&o);
    hes_status st = check_options(sys, &o);
    if (st != HES_OK)
        return st;
    if (o.starts == 1)
        return run_start(sys, &o, 0, r);

    int K = o.starts, threads = o.jobs < K ? (o.jobs > 1 ? o.jobs : 1) : K;
    double t0 = hes__monotonic_seconds();
    hes_trajopt_result *res = calloc((size_t)K, sizeof *res);
    start_job *jobs = malloc(sizeof *jobs * (size_t)threads);
    /* the copies before any start moves the caller's parameters (solved
       and design parameters go into the system) */
    hes_system **systems = calloc((size_t)K, sizeof *systems);
    int ok = res && jobs && systems;
    for (int s = 1; ok && s < K; s++)
        ok = (systems[s] = hes__system_copy(sys)) != NULL;
    if (!ok) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    systems[0] = sys;
    for (int t = 0; t < threads; t++)
        jobs[t] = (start_job){ systems, &o, res, t, threads };
    hes__run_parallel(threads, run_starts, jobs, sizeof *jobs);
    /* the least cost by shooting; without shooting anywhere, the least
       cost of the collocation */
    int best = -1;
    double bk = HUGE_VAL, bc = HUGE_VAL;
    for (int s = 0; s < K; s++) {
        const hes_trajopt_start *e = &res[s].starts[0];
        if (e->status != HES_OK)
            continue;
        double key = isfinite(e->cost_shooting) ? e->cost_shooting : HUGE_VAL;
        double c = isfinite(e->cost) ? e->cost : HUGE_VAL;
        if (best < 0 || key < bk || (key == bk && c < bc))
            best = s, bk = key, bc = c;
    }
    if (best < 0) { /* start 0's message is on sys */
        st = res[0].starts[0].status;
        goto out;
    }
    hes_trajopt_start kept = res[best].starts[0];
    *r = res[best];
    memset(&res[best], 0, sizeof res[best]);
    for (int s = 0; s < K; s++)
        r->starts[s] = s == best ? kept : res[s].starts[0];
    r->best_start = best;
    r->n_starts = K;
    r->seconds = hes__monotonic_seconds() - t0; /* of all the starts */
    /* the caller's system as the kept start left its own */
    if (best > 0)
        memcpy(sys->p, systems[best]->p, sizeof(double) * (size_t)sys->model->n_params);
out:
    for (int s = 0; res && s < K; s++)
        hes_trajopt_result_free(&res[s]);
    for (int s = 1; systems && s < K; s++)
        hes_system_destroy(systems[s]);
    free(systems);
    free(res);
    free(jobs);
    return st;
}

void hes_trajopt_result_free(hes_trajopt_result *r)
{
    if (!r)
        return;
    hes_gait_free(&r->gait);
    free(r->return_map);
    free(r->design);
    free(r->design_lo);
    free(r->design_hi);
    memset(r, 0, sizeof *r);
}
