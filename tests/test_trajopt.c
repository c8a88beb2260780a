/*
 * test_trajopt.c - the trajectory-optimisation pipeline (hes_trajopt_run):
 * the slip hopper collocated without a cost gives the psi `hes trajopt
 * slip-hopper --objective feasible --nodes 9` prints (the program calls the
 * same function), the shooting re-analysis agrees with the collocation, the
 * knee biped with inputs is refined on the finer grid, and every refusal
 * comes with HES_EINVAL and a message.
 *
 * Independent checks: psi of the re-analysis by shooting (CVODES
 * sensitivities on the gait's derived model) against psi of the collocation
 * (Hermite-Simpson step matrices); the period against the sum of the
 * gait's phase durations; the refined grid's node count (refine (nodes - 1)
 * + 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_slip_hopper_feasible_gives_the_psi_of_the_program)
{
    hes_system *sys = test_system("slip-hopper");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    o.objective = HES_COLLOC_FEASIBLE;
    o.nodes = 9;
    hes_trajopt_result r;
    ck_assert_int_eq(hes_trajopt_run(sys, &o, &r), HES_OK);
    /* `hes trajopt slip-hopper --quiet --objective feasible --nodes 9 --json` */
    ck_assert_double_eq_tol(r.psi_collocation, 2.0061790367227861, 1e-9);
    ck_assert_double_eq_tol(r.psi_shooting, 2.0061182402587838, 1e-9);
    ck_assert_int_eq(r.variables, 95);
    ck_assert(r.have_shooting);
    ck_assert_int_eq(r.shooting_status, HES_OK);
    ck_assert_int_eq(r.verdict, HES_UNSTABLE);
    ck_assert_int_eq(r.refined_nodes, 0); /* no inputs, no virtual events */
    ck_assert(isnan(r.psi_refined));
    ck_assert(isnan(r.energy));
    ck_assert(r.gait.psi == r.psi_collocation);
    ck_assert_str_eq(r.gait.objective, "feasible");
    /* the two computations of psi agree to the collocation's accuracy */
    ck_assert_double_eq_tol(r.psi_difference, fabs(r.psi_shooting - r.psi_collocation) /
                            r.psi_shooting, 1e-15);
    ck_assert(r.psi_difference < 1e-4);
    ck_assert(r.return_map_difference < 1e-3);
    double period = 0;
    for (int i = 0; i < r.gait.n_phases; i++)
        period += r.gait.phases[i].duration;
    ck_assert(period == r.period);
    ck_assert_int_eq(r.n, hes_system_model(sys)->modes[hes_system_model(sys)->orbit.mode].dim);
    ck_assert_int_eq(r.n_design, 0); /* feasible: no design parameters by default */
    hes_trajopt_result_free(&r);
    hes_trajopt_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

/* The two NLP solvers on the same programs: the knee biped's
 * minimum-energy gait (smooth: IPOPT by default) and the SLIP hopper's psi
 * in the cost (IPOPT asked for: its stall at psi's kinks hands over to
 * SLSQP), the same optima. */
static void solve_with(const char *problem, hes_nlp_solver solver, hes_colloc_objective obj,
                       hes_trajopt_result *r)
{
    hes_system *sys = test_system(problem);
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    o.nodes = 9;
    o.objective = obj;
    o.refine = 1;
    o.solver = solver;
    if (strcmp(problem, "knee-biped") == 0) {
        ck_assert_int_eq(hes_system_set_param(sys, "slope", 0), HES_OK);
        o.constant_inputs = 1;
    } else {
        ck_assert_int_eq(hes_system_set_param(sys, "K", 0.05), HES_OK);
        ck_assert_int_eq(hes_system_set_param(sys, "thetadot", -0.3), HES_OK);
    }
    ck_assert_msg(hes_trajopt_run(sys, &o, r) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_system_destroy(sys);
}

/* The knee biped's HES gait (psi + energy, 9 nodes, constant inputs, the
 * hybrid solver) from its minimum-energy gait me: on level ground when
 * level, within maxeval evaluations when maxeval > 0 (else the default). */
static void hes_gait_from(const hes_trajopt_result *me, int level, int maxeval,
                          hes_trajopt_result *r)
{
    hes_system *sys = test_system("knee-biped");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    if (level)
        ck_assert_int_eq(hes_system_set_param(sys, "slope", 0), HES_OK);
    o.nodes = 9;
    o.refine = 1;
    o.constant_inputs = 1;
    o.objective = HES_COLLOC_WEIGHTED;
    o.init = &me->gait;
    o.solver = HES_NLP_HYBRID;
    if (maxeval > 0)
        o.maxeval = maxeval;
    ck_assert_msg(hes_trajopt_run(sys, &o, r) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_system_destroy(sys);
}

START_TEST(test_ipopt_and_slsqp_find_the_same_optima)
{
    if (!hes_nlp_solver_available(HES_NLP_IPOPT))
        return;
    hes_trajopt_result a, b;
    solve_with("knee-biped", HES_NLP_DEFAULT, HES_COLLOC_ENERGY, &a);
    solve_with("knee-biped", HES_NLP_SLSQP, HES_COLLOC_ENERGY, &b);
    ck_assert_int_eq(a.solver, HES_NLP_IPOPT);
    ck_assert_int_eq(b.solver, HES_NLP_SLSQP);
    ck_assert_msg(fabs(a.energy / b.energy - 1) < 1e-6 &&
                  fabs(a.psi_shooting / b.psi_shooting - 1) < 1e-4,
                  "energy %.10g / %.10g, psi %.10g / %.10g", a.energy, b.energy,
                  a.psi_shooting, b.psi_shooting);
    printf("test_trajopt: knee-biped minimum energy: IPOPT %.10g (%d evaluations), SLSQP %.10g "
           "(%d)\n", a.energy, a.evaluations, b.energy, b.evaluations);
    hes_trajopt_result_free(&a);
    hes_trajopt_result_free(&b);
    solve_with("slip-hopper", HES_NLP_IPOPT, HES_COLLOC_STABILITY, &a);
    solve_with("slip-hopper", HES_NLP_DEFAULT, HES_COLLOC_STABILITY, &b);
    ck_assert_int_eq(b.solver, HES_NLP_SLSQP);   /* psi in the cost: SLSQP by default */
    ck_assert_msg(fabs(a.psi_collocation - b.psi_collocation) < 1e-6 * b.psi_collocation,
                  "psi %.10g (IPOPT) / %.10g (SLSQP)", a.psi_collocation, b.psi_collocation);
    printf("test_trajopt: SLIP psi in the cost: IPOPT then SLSQP %.10g, SLSQP %.10g\n",
           a.psi_collocation, b.psi_collocation);
    hes_trajopt_result_free(&a);
    hes_trajopt_result_free(&b);
}
END_TEST

/* The knee biped's minimum-energy gait and the SLIP's psi optimum by
 * `solver` equal SLSQP's in the full space (energy to 1e-9, psi to 1e-6),
 * its end points orbits (violation below 1e-8). */
static void same_optima_as_slsqp(hes_nlp_solver solver)
{
    const char *name = hes_nlp_solver_name(solver);
    hes_trajopt_result a, b;
    solve_with("knee-biped", solver, HES_COLLOC_ENERGY, &a);
    solve_with("knee-biped", HES_NLP_SLSQP, HES_COLLOC_ENERGY, &b);
    ck_assert_int_eq(a.solver, solver);
    ck_assert_msg(fabs(a.energy / b.energy - 1) < 1e-9 && a.violation < 1e-8,
                  "energy %.12g (%s) / %.12g, violation %g", a.energy, name, b.energy,
                  a.violation);
    printf("test_trajopt: knee-biped minimum energy: %s %.12g (%d evaluations), SLSQP "
           "%.12g (%d)\n", name, a.energy, a.evaluations, b.energy, b.evaluations);
    hes_trajopt_result_free(&a);
    hes_trajopt_result_free(&b);
    solve_with("slip-hopper", solver, HES_COLLOC_STABILITY, &a);
    solve_with("slip-hopper", HES_NLP_SLSQP, HES_COLLOC_STABILITY, &b);
    ck_assert_msg(fabs(a.psi_collocation - b.psi_collocation) < 1e-6 * b.psi_collocation &&
                  a.violation < 1e-8, "psi %.10g (%s) / %.10g (SLSQP), violation %g",
                  a.psi_collocation, name, b.psi_collocation, a.violation);
    printf("test_trajopt: SLIP psi in the cost: %s %.10g (%d evaluations), SLSQP %.10g "
           "(%d)\n", name, a.psi_collocation, a.evaluations, b.psi_collocation,
           b.evaluations);
    hes_trajopt_result_free(&a);
    hes_trajopt_result_free(&b);
    hes_nlp_solver s;
    ck_assert_int_eq(hes_nlp_solver_from_name(name, &s), HES_OK);
    ck_assert_int_eq(s, solver);
    ck_assert(hes_nlp_solver_available(solver));
}

/* The reduced space (SLSQP on the free variables, the equalities solved by
 * Newton's method at every point, colloc_reduced.c) on the same programs
 * as the full space's SLSQP: the same optima.  Its gradients come from the
 * implicit function theorem (S = -A^-1 B); a wrong S would leave SLSQP at
 * another point or stalled. */
START_TEST(test_reduced_space_finds_the_same_optima)
{
    same_optima_as_slsqp(HES_NLP_REDUCED);
    ck_assert_str_eq(hes_nlp_solver_name(HES_NLP_REDUCED), "reduced");
}
END_TEST

/* The hybrid (a tenth of the budget in the full space, the rest in the
 * reduced one): the same optima as SLSQP on the programs above; and from
 * the knee biped's minimum-energy gait (psi 3.3, cost psi + energy 3.38)
 * a gait of cost below 1 (0.72 at 9 nodes, where the reduced space alone
 * reaches 0.76: which solver does better depends on the start, and the
 * benchmark, bench_gaits.sh, compares them over many starts, which a
 * single run cannot). */
START_TEST(test_hybrid_finds_the_optima_from_a_far_start)
{
    same_optima_as_slsqp(HES_NLP_HYBRID);
    ck_assert_str_eq(hes_nlp_solver_name(HES_NLP_HYBRID), "hybrid");
    hes_trajopt_result me, w;
    solve_with("knee-biped", HES_NLP_SLSQP, HES_COLLOC_ENERGY, &me);
    hes_gait_from(&me, 0, 0, &w);
    double c0 = me.psi_collocation + me.energy, c1 = w.psi_collocation + w.energy;
    ck_assert_msg(c0 > 3 && c1 < 1 && w.violation < 1e-8 && w.solver == HES_NLP_HYBRID,
                  "psi + energy from the ME gait's %.6g: %.6g (violation %g)", c0, c1,
                  w.violation);
    printf("test_trajopt: knee-biped psi + energy from the ME gait's %.6g: hybrid %.6g (%d "
           "evaluations)\n", c0, c1, w.evaluations);
    hes_trajopt_result_free(&me);
    hes_trajopt_result_free(&w);
}
END_TEST

START_TEST(test_knee_biped_with_inputs_is_refined)
{
    hes_system *sys = test_system("knee-biped");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    o.nodes = 9;
    o.maxeval = 20;
    hes_trajopt_result r;
    ck_assert_int_eq(hes_trajopt_run(sys, &o, &r), HES_OK);
    ck_assert_int_eq(r.refined_nodes, 2 * (9 - 1) + 1);
    ck_assert(isfinite(r.psi_refined));
    ck_assert(r.gait.psi == r.psi_refined);
    ck_assert(isfinite(r.energy) && r.energy >= 0);
    ck_assert(r.have_shooting);
    ck_assert(fabs(r.psi_shooting - r.psi_refined) < 1e-2 * r.psi_shooting);
    ck_assert(r.evaluations >= 1 && r.evaluations <= 20 + 2);
    hes_trajopt_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

/* The options o are refused with HES_EINVAL and, if why, that message. */
static void refused(hes_system *sys, const hes_trajopt_options *o, const char *why)
{
    hes_trajopt_result r;
    ck_assert_int_eq(hes_trajopt_run(sys, o, &r), HES_EINVAL);
    if (why)
        ck_assert_msg(strstr(hes_system_errmsg(sys), why), "'%s' does not say '%s'",
                      hes_system_errmsg(sys), why);
}

START_TEST(test_refusals_have_a_status_and_a_message)
{
    hes_trajopt_result r;
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    hes_system *juggler = test_system("paddle-juggler"), *trot = test_system("trot-rigid"),
               *slip = test_system("slip-hopper");

    ck_assert_int_eq(hes_trajopt_run(trot, &o, &r), HES_EINVAL); /* no orbit guess */
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(trot), "no orbit to collocate"));
    ck_assert_int_eq(hes_trajopt_run(juggler, &o, &r), HES_EINVAL); /* not autonomous */
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(juggler), "autonomous"));

    o.objective = HES_COLLOC_ENERGY;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip), "no inputs, so no energy cost"));
    o.objective = (hes_colloc_objective)7;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip), "objective"));

    hes_trajopt_options_init(&o);
    o.nodes = 2;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    hes_trajopt_options_init(&o);
    o.refine = 0;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    hes_trajopt_options_init(&o);
    o.weight = -1;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    hes_trajopt_options_init(&o);
    o.n_design = HES_COLLOC_MAX_DESIGN + 1;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    /* further grids: each finer than the one before, at most 7, given */
    const int same[1] = { 21 }, down[2] = { 31, 25 }, many[8] = { 22, 23, 24, 25, 26, 27, 28, 29 };
    hes_trajopt_options_init(&o);
    o.n_finer = 1;
    o.finer_nodes = same;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip),
                                 "more nodes than the one before (21 after 21)"));
    o.n_finer = 2;
    o.finer_nodes = down;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip), "(25 after 31)"));
    o.n_finer = HES_TRAJOPT_MAX_GRIDS;
    o.finer_nodes = many;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    o.n_finer = 1;
    o.finer_nodes = NULL;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    o.n_finer = -1;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    const int finer[1] = { 31 }, evals[1] = { 0 };
    o.n_finer = 1;
    o.finer_nodes = finer;
    o.finer_maxeval = evals;
    refused(slip, &o, "maxeval >= 1 on every further grid (got 0 on grid 2)");
    hes_trajopt_options_init(&o);
    o.psi_floor_smoothing = -0.1;
    refused(slip, &o, "psi floor, its smoothing");
    o.psi_floor_smoothing = NAN;
    refused(slip, &o, NULL);
    hes_trajopt_options_init(&o);
    o.psi_smoothing = -0.1;
    refused(slip, &o, "and psi's smoothing must be finite numbers >= 0");
    o.psi_smoothing = HUGE_VAL;
    refused(slip, &o, NULL);
    o.psi_smoothing = 0.05;
    o.measure = HES_MEASURE_SMOOTH;
    refused(slip, &o, "the smooth measure has none");
    /* several starts: 1 to HES_TRAJOPT_MAX_STARTS, a spread in (0, 1], at
       most HES_COLLOC_MAX_JOBS jobs, a cost to compare them by */
    hes_trajopt_options_init(&o);
    o.starts = 0;
    refused(slip, &o, "1 to 64 starts (got 0)");
    o.starts = HES_TRAJOPT_MAX_STARTS + 1;
    refused(slip, &o, NULL);
    o.starts = 2;
    const double spreads[] = { NAN, -0.1, 0 /* K identical starts */, 1.5 };
    for (int k = 0; k < 4; k++) {
        o.start_spread = spreads[k];
        refused(slip, &o, k == 2 ? "spread must be in (0, 1] (got 0)" : NULL);
    }
    o.start_spread = 0.01;
    o.jobs = HES_COLLOC_MAX_JOBS + 1;
    refused(slip, &o, NULL);
    o.jobs = 1;
    o.objective = HES_COLLOC_FEASIBLE;
    refused(slip, &o, "need a cost");

    const char *state[1] = { "nosuch" }, *param[1] = { "nosuch" };
    const double lo[1] = { 0 }, hi[1] = { 1 };
    hes_trajopt_options_init(&o);
    o.n_bounds = 1;
    o.bound_states = state;
    o.bound_lo = lo;
    o.bound_hi = hi;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip), "no state 'nosuch'"));
    hes_trajopt_options_init(&o);
    o.n_design = 1;
    o.design = param;
    o.design_lo = lo;
    o.design_hi = hi;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_ENOTFOUND); /* hes_colloc_set_design's */
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(slip), "nosuch"));
    o.design_lo = NULL;
    ck_assert_int_eq(hes_trajopt_run(slip, &o, &r), HES_EINVAL);

    ck_assert_int_eq(hes_trajopt_run(slip, &o, NULL), HES_EINVAL);
    ck_assert_int_eq(hes_trajopt_run(NULL, &o, &r), HES_EINVAL);
    ck_assert_ptr_null(r.return_map); /* nothing left to free after a refusal */
    hes_trajopt_result_free(&r);
    hes_trajopt_result_free(NULL);
    hes_system_destroy(juggler);
    hes_system_destroy(trot);
    hes_system_destroy(slip);
}
END_TEST

/* The refinement holds the inputs and the virtual events' offsets, so the
 * fine grid determines the durations: the bounds on them would
 * over-determine its orbit.  A gait whose shortest phase sits at the model's
 * minimum duration (the knee biped's gaits with virtual events push a
 * sub-phase there) is a little shorter on the fine grid; it used to be
 * refused ("collocation did not converge").  Made here exactly: the minimum
 * duration set between a phase's coarse and fine durations. */
START_TEST(test_refinement_is_not_bound_by_the_durations)
{
    const hes_model *base = hes_problem_find("knee-biped");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    o.objective = HES_COLLOC_FEASIBLE;
    o.nodes = 7;
    o.constant_inputs = 1;
    static const int virtual_events[] = { 2, 1 };
    o.virtual_events = virtual_events;
    o.refine = 1;
    hes_system *sys = test_system_of(base);
    hes_trajopt_result coarse, fine, r;
    ck_assert_int_eq(hes_trajopt_run(sys, &o, &coarse), HES_OK);
    o.init = &coarse.gait;
    o.refine = 3;
    ck_assert_int_eq(hes_trajopt_run(sys, &o, &fine), HES_OK);
    hes_system_destroy(sys);
    ck_assert_int_eq(fine.gait.n_phases, coarse.gait.n_phases);
    /* the shortest phase, which the fine grid shortens: the minimum
       duration between its two durations holds on the coarse grid only */
    int i = 0;
    for (int k = 1; k < coarse.gait.n_phases; k++)
        if (coarse.gait.phases[k].duration < coarse.gait.phases[i].duration)
            i = k;
    double dc = coarse.gait.phases[i].duration, df = fine.gait.phases[i].duration;
    ck_assert(df < dc - 1e-9);
    hes_model m = *base;
    hes_trajopt_spec spec = *base->trajopt;
    spec.min_duration = 0.5 * (dc + df);
    m.trajopt = &spec;
    hes_system *bounded = test_system_of(&m);
    ck_assert_int_eq(hes_trajopt_run(bounded, &o, &r), HES_OK);
    ck_assert_int_eq(r.refined_nodes, 3 * (7 - 1) + 1);
    /* the same fine gait: the bound was left out, not enforced (to 1e-6:
       the first states are free within bounds, and the coarse feasibility
       solve, whose bounds differ, lands on a neighbouring orbit; the fine
       grid moves the duration by dc - df = 1.1e-4) */
    ck_assert(r.gait.phases[i].duration < spec.min_duration);
    ck_assert_double_eq_tol(r.gait.phases[i].duration, df, 1e-6);
    ck_assert_double_eq_tol(r.psi_refined, fine.psi_refined, 1e-6);
    hes_system_destroy(bounded);
    hes_trajopt_result_free(&coarse);
    hes_trajopt_result_free(&fine);
    hes_trajopt_result_free(&r);
}
END_TEST

/* The psi floor's smoothing (hes_trajopt_options.psi_floor_smoothing): a
 * floor gait of the knee biped on 9 nodes (psi + energy with psi counted
 * down to FLOOR, virtual events, the reduced space, 300 evaluations, no
 * input-rate term, so that the cost is max(psi, FLOOR) + energy exactly),
 * from its HES gait (psi 0.54 on this grid and budget).  Without smoothing
 * SLSQP crawls along the kink where psi meets the floor (0.560, psi
 * 0.401); with it the same budget ends at a lower true cost (0.501). */
#define FLOOR 0.4
static double floor_gait(const hes_trajopt_result *hes, double smoothing, hes_trajopt_result *r)
{
    hes_system *sys = test_system("knee-biped");
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    ck_assert_int_eq(hes_system_set_param(sys, "slope", 0), HES_OK);
    static const int virtual_events[] = { 5, 2 };
    o.nodes = 9;
    o.refine = 1;
    o.constant_inputs = 1;
    o.objective = HES_COLLOC_WEIGHTED;
    o.virtual_events = virtual_events;
    o.smooth_weight = 0;
    o.psi_floor = FLOOR;
    o.psi_floor_smoothing = smoothing;
    o.maxeval = 300;
    o.init = &hes->gait;
    o.solver = HES_NLP_REDUCED;
    ck_assert_msg(hes_trajopt_run(sys, &o, r) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_system_destroy(sys);
    ck_assert(r->violation < 1e-8);
    return fmax(r->psi_collocation, o.psi_floor) + r->energy;
}

START_TEST(test_psi_floor_smoothing_lowers_the_true_cost)
{
    hes_trajopt_result me, hes, plain, smoothed;
    solve_with("knee-biped", HES_NLP_SLSQP, HES_COLLOC_ENERGY, &me);
    hes_gait_from(&me, 1, 300, &hes);
    double c0 = fmax(hes.psi_collocation, FLOOR) + hes.energy;
    double c_plain = floor_gait(&hes, 0, &plain);
    double c_smooth = floor_gait(&hes, HES_COLLOC_FLOOR_SMOOTHING, &smoothed);
    printf("test_trajopt: floor gait from the HES gait's %.6g (psi %.4f): smoothing none %.6g "
           "(psi %.4f, %d evaluations), %.2g %.6g (psi %.4f, %d)\n", c0, hes.psi_collocation,
           c_plain, plain.psi_collocation, plain.evaluations, HES_COLLOC_FLOOR_SMOOTHING,
           c_smooth, smoothed.psi_collocation, smoothed.evaluations);
    ck_assert(c_plain < c0);
    /* Which of the two crawls further along the kink in 300 evaluations is
     * a property of this path, not only of the method: under valgrind
     * (make check-valgrind sets HES_UNDER_VALGRIND), whose emulated floating
     * point moves SLSQP's path, both runs end near 0.60, so there the
     * comparison is not made (the runs are still checked for memory). */
    if (!getenv("HES_UNDER_VALGRIND"))
        ck_assert(c_smooth < c_plain - 0.01);
    hes_trajopt_result_free(&me);
    hes_trajopt_result_free(&hes);
    hes_trajopt_result_free(&plain);
    hes_trajopt_result_free(&smoothed);
}
END_TEST

/* A start that fails: the SLIP whose flight field refuses K above 0.13
 * (a model error), the design K in [0, 0.6] and thetadot, from K = 0.12;
 * several starts with spread 1 move K by up to 0.12, so that some start
 * above 0.13 and fail at their first point, while start 0 reaches the
 * optimum K = 0.11875 below the refusal.  The result is the best start
 * that succeeded, and each failed start keeps its status and message. */
typedef struct {
    hes_fn field;
    int k;                       /* the index of K */
} refusing_field;

static int refuse_large_K(double t, const double *x, const double *p, double *out, void *data)
{
    const refusing_field *r = data;
    if (p[r->k] > 0.13)
        return 7;
    return r->field(t, x, p, out, NULL);
}

START_TEST(test_a_failed_start_keeps_its_message)
{
    const hes_model *slip = hes_problem_find("slip-hopper");
    hes_model m = *slip;
    hes_mode modes[8];
    ck_assert(slip->n_modes <= 8);
    memcpy(modes, slip->modes, sizeof(hes_mode) * (size_t)slip->n_modes);
    refusing_field rf = { modes[0].field, -1 };
    for (int i = 0; i < slip->n_params; i++)
        if (strcmp(slip->params[i].name, "K") == 0)
            rf.k = i;
    ck_assert(rf.k >= 0 && modes[0].data == NULL);
    modes[0].field = refuse_large_K;
    modes[0].data = &rf;
    m.modes = modes;
    hes_system *sys = test_system_of(&m);
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "K", 0.12), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "thetadot", 1.0), HES_OK);
    hes_trajopt_options o;
    hes_trajopt_options_init(&o);
    static const char *const names[] = { "K", "thetadot" };
    static const double lo[] = { 0.0, -3.0 }, hi[] = { 0.6, 1.0 };
    o.nodes = 11;
    o.refine = 1;
    o.n_design = 2;
    o.design = names;
    o.design_lo = lo;
    o.design_hi = hi;
    o.maxeval = 200;
    o.starts = 6;
    o.start_spread = 1.0;
    hes_trajopt_result r;
    ck_assert_msg(hes_trajopt_run(sys, &o, &r) == HES_OK, "%s", hes_system_errmsg(sys));
    int failed = 0;
    for (int s = 0; s < r.n_starts; s++) {
        const hes_trajopt_start *e = &r.starts[s];
        if (e->status == HES_OK) {
            ck_assert(e->message[0] == '\0' && !(e->cost_shooting < r.cost_shooting));
            continue;
        }
        failed++;
        ck_assert_msg(e->message[0] != '\0', "start %d failed without a message", s);
        printf("test_trajopt: start %d failed: %s\n", s, e->message);
    }
    ck_assert_int_eq(r.n_starts, 6);
    ck_assert_msg(failed > 0 && failed < 6, "%d of 6 starts failed", failed);
    ck_assert_int_eq(r.starts[r.best_start].status, HES_OK);
    ck_assert(r.starts[0].status == HES_OK);
    char *json = hes_trajopt_json(sys, &r); /* the failures' messages in "starts" */
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_nonnull(strstr(json, "vector field of 'descent' failed"));
    free(json);
    hes_trajopt_result_free(&r);
    hes_system_destroy(sys);
}
END_TEST

static Suite *trajopt_suite(void)
{
    Suite *s = suite_create("trajopt");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_slip_hopper_feasible_gives_the_psi_of_the_program);
    tcase_add_test(tc, test_knee_biped_with_inputs_is_refined);
    tcase_add_test(tc, test_refinement_is_not_bound_by_the_durations);
    tcase_add_test(tc, test_ipopt_and_slsqp_find_the_same_optima);
    tcase_add_test(tc, test_reduced_space_finds_the_same_optima);
    tcase_add_test(tc, test_hybrid_finds_the_optima_from_a_far_start);
    tcase_add_test(tc, test_refusals_have_a_status_and_a_message);
    tcase_add_test(tc, test_psi_floor_smoothing_lowers_the_true_cost);
    tcase_add_test(tc, test_a_failed_start_keeps_its_message);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(trajopt_suite());
}
