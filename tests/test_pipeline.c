/*
 * test_pipeline.c - one orbit pipeline for both kinds of model: an
 * event-selected system (hopper-pumped, integrated by ESS) and an
 * event-driven hybrid model (slip-hopper) go through the same public calls,
 * hes_analyze, hes_sweep_run_system and hes_shape_optimize, on a
 * hes_system of each kind.
 *
 * Each claim against an independent computation:
 *  - the analysis's monodromy against central differences of full runs
 *    (hes_analyze's check), for each kind;
 *  - the ESS system's analysis equals the ESS integrator's own orbit search
 *    (hes_ess_orbit_find on a separate integrator), and its JSON document
 *    equals the one of that search;
 *  - a sweep's every row equals hes_analyze at that point (to the verdict's
 *    accuracy), on one thread and on two (the same rows);
 *  - shape optimisation runs on the hybrid system and is refused, with the
 *    reason, on the ESS one; so is every call that needs modes and
 *    saltation matrices, with HES_EINVAL and no crash.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"

static hes_system *ess_system(void)
{
    hes_system *sys;
    hes_error msg;
    ck_assert_int_eq(hes_system_new_ess(hes_ess_problem_find("hopper-pumped"), &sys, &msg), HES_OK);
    ck_assert_int_eq(hes_system_kind(sys), HES_KIND_ESS);
    return sys;
}

static hes_system *hybrid_system(void)
{
    hes_system *sys;
    hes_error msg;
    ck_assert_int_eq(hes_system_new(hes_problem_find("slip-hopper"), &sys, &msg),
                     HES_OK);
    ck_assert_int_eq(hes_system_kind(sys), HES_KIND_HYBRID);
    return sys;
}

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

START_TEST(test_analyze_takes_both_kinds_and_checks_against_differences)
{
    hes_system *sys[2] = { ess_system(), hybrid_system() };
    for (int k = 0; k < 2; k++) {
        hes_analysis res;
        ck_assert_msg(hes_analyze(sys[k], 1, &res) == HES_OK, "%s: %s",
                      hes_system_name(sys[k]), hes_system_errmsg(sys[k]));
        int n = res.mono.n;
        ck_assert_int_eq(res.have_check, 1);
        /* the differences carry rtol^(2/3) (ESS, rtol 1e-8) or 1e-12^(2/3)
           (hybrid) relative errors */
        double tol = k == 0 ? 1e-3 : 1e-5;
        ck_assert_msg(res.check_max_abs_diff < tol * fmax(1, max_abs(res.mono.phi, n * n)),
                      "%s: monodromy differs from central differences by %g",
                      hes_system_name(sys[k]), res.check_max_abs_diff);
        /* the pumped hopper hops stably; the SLIP at its defaults (no
           touchdown law yet) is unstable: psi 2.006 */
        ck_assert(k == 0 ? res.stab.psi > 0.5 && res.stab.psi < 1 : res.stab.psi > 1.5);
        ck_assert_int_eq(res.stab.verdict, k == 0 ? HES_STABLE : HES_UNSTABLE);
        ck_assert_int_eq(res.orbit.autonomous, 1);
        ck_assert(res.orbit.period > 0);
        ck_assert((res.ess != NULL) == (k == 0));
        hes_analysis_free(&res);
        hes_system_destroy(sys[k]);
    }
}
END_TEST

START_TEST(test_ess_system_equals_the_integrators_own_search)
{
    const hes_ess_model *em = hes_ess_problem_find("hopper-pumped");
    hes_system *sys = ess_system();
    ck_assert_int_eq(hes_system_set_param(sys, "pump", 2.5), HES_OK);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);

    hes_ess *ess;
    ck_assert_int_eq(hes_ess_new(em, &ess, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_set_param(ess, "pump", 2.5), HES_OK);
    hes_ess_orbit_options o;
    hes_ess_orbit_options_init(&o);
    o.section = em->orbit_section;
    hes_ess_orbit orb;
    ck_assert_int_eq(hes_ess_orbit_find(ess, &o, em->orbit_x0, em->orbit_period, &orb), HES_OK);
    ck_assert_double_eq(res.stab.psi, orb.stab.psi);
    ck_assert_double_eq(res.stab.psi_tol, orb.stab.psi_tol);
    ck_assert_double_eq(res.orbit.period, orb.period);
    for (int i = 0; i < orb.n; i++)
        ck_assert_double_eq(res.orbit.x0[i], orb.x0[i]);
    char *a = hes_analysis_json(sys, &res), *b = hes_ess_orbit_json(ess, &o, &orb);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    hes_ess_orbit_free(&orb);
    hes_ess_destroy(ess);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

typedef struct {
    int n;
    hes_sweep_row rows[8];
} collected;

static int collect(void *ctx, const hes_sweep_row *row)
{
    collected *c = ctx;
    c->rows[c->n++] = *row;
    return 0;
}

START_TEST(test_sweep_takes_both_kinds_and_each_row_is_the_analysis)
{
    const char *param[2] = { "k", "k" };
    double values[2][4] = { { 800, 900, 1000, 1100 }, { 0, 0, 0, 0 } };
    hes_system *sys[2] = { ess_system(), hybrid_system() };
    double base;
    ck_assert_int_eq(hes_system_get_param(sys[1], param[1], &base), HES_OK);
    for (int i = 0; i < 4; i++)
        values[1][i] = base * (0.9 + 0.05 * i);
    for (int k = 0; k < 2; k++) {
        int idx = -1;
        for (int i = 0; i < hes_system_n_params(sys[k]); i++)
            if (strcmp(hes_system_param_info(sys[k], i)->name, param[k]) == 0)
                idx = i;
        ck_assert_int_ge(idx, 0);
        collected one = { 0 }, two = { 0 };
        hes_sweep_options so = { 1, &idx, 4, values[k], 0, 1, NULL, collect, &one, NULL, 0, NULL,
                              NULL };
        hes_error msg;
        ck_assert_msg(hes_sweep_run_system(sys[k], &so, &msg) == HES_OK, "%s", msg.message);
        so.jobs = 2;
        so.ctx = &two;
        ck_assert_int_eq(hes_sweep_run_system(sys[k], &so, &msg), HES_OK);
        ck_assert_int_eq(one.n, 4);
        ck_assert_int_eq(two.n, 4);
        for (int i = 0; i < 4; i++) {
            ck_assert_msg(one.rows[i].status == HES_OK, "%s point %d: %s",
                          hes_system_name(sys[k]), i, one.rows[i].message);
            ck_assert_int_eq(one.rows[i].index, i);
            hes_system *at = k ? hybrid_system() : ess_system();
            ck_assert_int_eq(hes_system_set_param(at, param[k], values[k][i]), HES_OK);
            hes_analysis res;
            ck_assert_int_eq(hes_analyze(at, 0, &res), HES_OK);
            /* warm-started from the neighbour: the same orbit to the search's tolerance */
            ck_assert_msg(fabs(one.rows[i].psi - res.stab.psi) <= res.stab.psi_tol,
                          "%s point %d: sweep psi %.15g, analysis %.15g (+- %g)",
                          hes_system_name(sys[k]), i, one.rows[i].psi, res.stab.psi,
                          res.stab.psi_tol);
            ck_assert_int_eq(one.rows[i].verdict, res.stab.verdict);
            ck_assert(fabs(one.rows[i].period - res.orbit.period) <= 1e-6 * res.orbit.period);
            ck_assert_double_eq(one.rows[i].psi, two.rows[i].psi); /* thread count: no effect */
            hes_analysis_free(&res);
            hes_system_destroy(at);
        }
        hes_system_destroy(sys[k]);
    }
}
END_TEST

START_TEST(test_shape_takes_the_hybrid_kind_and_refuses_the_ess_kind_saying_why)
{
    hes_shape_options so;
    hes_shape_options_init(&so);
    so.starts = 1;
    so.maxeval = 20;
    so.polish = 0;
    hes_shape_result r;
    hes_system *h = hybrid_system();
    ck_assert_msg(hes_shape_optimize(h, &so, &r) == HES_OK, "%s", hes_system_errmsg(h));
    ck_assert(r.psi <= r.psi_initial + r.analysis.stab.psi_tol);
    hes_shape_result_free(&r);
    hes_system_destroy(h);

    hes_system *e = ess_system();
    ck_assert_int_eq(hes_shape_optimize(e, &so, &r), HES_EINVAL);
    ck_assert_msg(strstr(hes_system_errmsg(e), "event-selected system"), "%s",
                  hes_system_errmsg(e));
    hes_shape_result_free(&r);
    hes_system_destroy(e);
}
END_TEST

START_TEST(test_what_needs_modes_refuses_an_ess_system)
{
    hes_system *e = ess_system();
    double x[2] = { 1.2, 0 }, out[4];
    hes_traj traj;
    hes_sim_options so;
    hes_sim_options_init(&so);
    so.t_end = 1;
    ck_assert_int_eq(hes_simulate(e, 0, 0, 0, x, &so, &traj), HES_EINVAL);
    hes_traj_free(&traj);
    hes_orbit orbit;
    ck_assert_int_eq(hes_orbit_find(e, &orbit), HES_EINVAL);
    hes_orbit_free(&orbit);
    ck_assert_int_eq(hes_orbit_return_map(e, x, out), HES_EINVAL);
    ck_assert_int_eq(hes_saltation(e, 0, 0, x, out), HES_EINVAL);
    ck_assert_int_eq(hes_variational(e, 0, 0, 1, x, out, out), HES_EINVAL);
    hes_monodromy mono;
    memset(&traj, 0, sizeof traj);
    ck_assert_int_eq(hes_monodromy_compute(e, &traj, 1, &mono), HES_EINVAL);
    hes_colloc *c;
    ck_assert_int_eq(hes_colloc_new(e, NULL, &c), HES_EINVAL);
    hes_trajopt_result tr;
    ck_assert_int_eq(hes_trajopt_run(e, NULL, &tr), HES_EINVAL);
    hes_trajopt_result_free(&tr);
    hes_flow fl;
    ck_assert_int_eq(hes_flow_jacobian(e, 0, x, 1, &fl), HES_EINVAL);
    hes_flow_free(&fl);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(e, 0, &res), HES_OK);
    hes_shape *sh;
    ck_assert_int_eq(hes_shape_new(e, &res, 0, NULL, &sh), HES_EINVAL);
    hes_trials t;
    ck_assert_int_eq(hes_trials_run(e, &res.orbit, 2, 1e-3, 2, 1, 1e-6, &t), HES_EINVAL);
    hes_trials_free(&t);
    ck_assert(strstr(hes_system_errmsg(e), "needs an event-driven hybrid model"));
    hes_analysis_free(&res);
    /* what every system answers */
    ck_assert_ptr_null(hes_system_model(e));
    ck_assert_ptr_nonnull(hes_system_ess_model(e));
    ck_assert_str_eq(hes_system_name(e), "hopper-pumped");
    ck_assert_str_eq(hes_kind_name(hes_system_kind(e)), "ess");
    ck_assert_int_eq(hes_system_set_orbit_period(e, -1), HES_EINVAL);
    ck_assert_int_eq(hes_system_set_orbit_period(e, NAN), HES_OK);
    hes_system_destroy(e);
}
END_TEST

START_TEST(test_settings_and_ess_options_are_one_vocabulary)
{
    hes_system *e = ess_system();
    hes_settings s = hes_system_get_settings(e);
    hes_ess_orbit_options o;
    ck_assert_int_eq(hes_system_get_ess_options(e, &o), HES_OK);
    ck_assert_double_eq(s.max_search_time, o.max_wall_time);
    ck_assert_int_eq(s.newton_maxiter, o.max_iter);
    s.max_search_time = 1e-9; /* the budget, by its one name */
    ck_assert_int_eq(hes_system_set_settings(e, &s), HES_OK);
    ck_assert_int_eq(hes_system_get_ess_options(e, &o), HES_OK);
    ck_assert_double_eq(o.max_wall_time, 1e-9);
    hes_analysis res;
    ck_assert_int_eq(hes_analyze(e, 0, &res), HES_ESOLVER);
    ck_assert_msg(strstr(hes_system_errmsg(e), "used its budget of 1e-09 s"), "%s",
                  hes_system_errmsg(e));
    o.section = 7;
    ck_assert_int_eq(hes_system_set_ess_options(e, &o), HES_EINVAL);
    hes_system *h = hybrid_system();
    ck_assert_int_eq(hes_system_get_ess_options(h, &o), HES_EINVAL);
    ck_assert_int_eq(hes_system_set_ess_options(h, &o), HES_EINVAL);
    hes_system_destroy(h);
    hes_system_destroy(e);
}
END_TEST

/* The lines of a file (at most 64 of 4 kB), their count. */
static int read_lines(const char *path, char lines[][4096], int max)
{
    FILE *f = fopen(path, "r");
    int n = 0;
    ck_assert_ptr_nonnull(f);
    while (n < max && fgets(lines[n], 4096, f))
        n++;
    fclose(f);
    return n;
}

START_TEST(test_a_sweep_file_resumes_from_the_library_keeping_valid_rows)
{
    char path[] = "/tmp/test_pipeline_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    hes_system *e = ess_system();
    int idx = -1;
    for (int i = 0; i < hes_system_n_params(e); i++)
        if (strcmp(hes_system_param_info(e, i)->name, "k") == 0)
            idx = i;
    double values[4] = { 800, 900, 1000, 1100 };
    collected got = { 0 };
    hes_sweep_options so = { 1, &idx, 4, values, 0, 2, NULL, collect, &got, NULL, 0, NULL, NULL };
    hes_sweep_file_options fo = { path, NULL, NULL, 0, "grid k=800:1100:4", "test" };
    hes_sweep_file_report rep;
    hes_error msg;
    ck_assert_msg(hes_sweep_run_file(e, &so, &fo, &rep, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(got.n, 4);
    static char first[64][4096], orig[64][4096], again[64][4096];
    int n = read_lines(path, first, 64);
    memcpy(orig, first, sizeof orig);
    ck_assert_int_ge(n, 6); /* '#' lines, the header, 4 rows */
    ck_assert_msg(strncmp(first[n - 5], "index,k,status,psi", 18) == 0, "%s", first[n - 5]);
    /* a damaged row (one digit of the third point's psi changed) and a cut last row */
    char *psi = strchr(strchr(first[n - 2], ',') + 1, ','); /* ...,k,status,psi */
    psi = strchr(psi + 1, ',') + 3;
    *psi = *psi == '1' ? '2' : '1';
    first[n - 1][10] = '\0';
    FILE *f = fopen(path, "w");
    for (int i = 0; i < n; i++)
        fputs(first[i], f);
    fclose(f);
    got.n = 0;
    fo.resume = 1;
    ck_assert_msg(hes_sweep_run_file(e, &so, &fo, &rep, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(rep.kept, 2);
    ck_assert_int_eq(rep.corrupted, 1);
    ck_assert_int_eq(rep.cut, 1);
    ck_assert_int_eq(got.n, 2); /* only the two dropped points computed again */
    int m = read_lines(path, again, 64);
    ck_assert_int_eq(m, n);
    /* every row: the first run's row of its point, exactly when it was
       kept, with psi within 1e-9 when computed again (from the model's
       guess instead of a neighbour's orbit) */
    int n_rows = 0;
    for (int i = 0; i < m; i++)
        if (again[i][0] >= '0' && again[i][0] <= '9') {
            n_rows++;
            int index = atoi(again[i]), same = 0;
            for (int j = 0; j < n; j++) {
                if (!(orig[j][0] >= '0' && orig[j][0] <= '9') || atoi(orig[j]) != index)
                    continue;
                double a, b;
                ck_assert_int_eq(sscanf(strchr(strchr(strchr(again[i], ',') + 1, ',') + 1, ',') + 1,
                                        "%lf", &a), 1);
                ck_assert_int_eq(sscanf(strchr(strchr(strchr(orig[j], ',') + 1, ',') + 1, ',') + 1,
                                        "%lf", &b), 1);
                same = index < 2 ? strcmp(again[i], orig[j]) == 0 : fabs(a - b) < 1e-9;
            }
            ck_assert_msg(same, "row %s", again[i]);
        }
    ck_assert_int_eq(n_rows, 4);
    /* another sweep's file is refused, naming what differs */
    ck_assert_int_eq(hes_system_set_param(e, "pump", 2.5), HES_OK);
    ck_assert_int_eq(hes_sweep_run_file(e, &so, &fo, &rep, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "pump"), "%s", msg.message);
    unlink(path);
    hes_system_destroy(e);
}
END_TEST

START_TEST(test_one_way_from_a_name_or_a_plugin_to_a_system_and_one_catalog)
{
    const char *names[] = { "slip-hopper", "hopper-pumped", "tests/.libs/ball_walls_plugin.so",
                            "tests/.libs/rimless_wheel_plugin.so" };
    hes_kind kinds[] = { HES_KIND_HYBRID, HES_KIND_ESS, HES_KIND_ESS, HES_KIND_HYBRID };
    hes_error msg;
    for (int k = 0; k < 4; k++) {
        hes_system *sys;
        hes_plugin *pl;
        ck_assert_msg(hes_system_open(names[k], &sys, &pl, &msg) == HES_OK, "%s: %s",
                      names[k], msg.message);
        ck_assert_int_eq(hes_system_kind(sys), kinds[k]);
        ck_assert((pl != NULL) == (k >= 2));
        hes_analysis *a;
        ck_assert_msg(hes_analysis_new(sys, 0, &a) == HES_OK, "%s: %s", names[k],
                      hes_system_errmsg(sys));
        ck_assert(hes_analysis_psi(a) > 0);
        hes_analysis_destroy(a);
        hes_system_destroy(sys);
        hes_plugin_destroy(pl);
    }
    hes_system *sys = (hes_system *)1;
    hes_plugin *pl = (hes_plugin *)1;
    ck_assert_int_eq(hes_system_open("no-such-model", &sys, &pl, &msg), HES_ENOTFOUND);
    ck_assert(sys == NULL && pl == NULL && strstr(msg.message, "no-such-model"));
    ck_assert_int_eq(hes_system_open("rocking-block", &sys, &pl, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "impact problem"), "%s", msg.message);
    ck_assert_int_eq(hes_system_open("./no_such_plugin.so", &sys, &pl, &msg),
                     HES_ENOTFOUND); /* the plugin loader's status for a missing file */
    ck_assert_msg(strstr(msg.message, "no_such_plugin.so"), "%s", msg.message);
    /* the catalog: every built-in once, with its registry's kind */
    int n = hes_catalog_count(), counted[3] = { 0, 0, 0 };
    ck_assert_int_eq(n, hes_problem_count() + hes_ess_problem_count() +
                            hes_impact_problem_count());
    for (int i = 0; i < n; i++) {
        const char *name, *kind, *desc;
        ck_assert_int_eq(hes_catalog_entry(i, &name, &kind, &desc), HES_OK);
        int which = strcmp(kind, "hybrid") == 0 ? 0 : strcmp(kind, "ess") == 0 ? 1 : 2;
        ck_assert(which < 2 || strcmp(kind, "impact") == 0);
        ck_assert_ptr_nonnull(which == 0 ? (const void *)hes_problem_find(name)
                              : which == 1 ? (const void *)hes_ess_problem_find(name)
                                           : (const void *)hes_impact_problem_find(name));
        ck_assert(desc != NULL);
        counted[which]++;
    }
    ck_assert_int_eq(counted[0], hes_problem_count());
    ck_assert_int_eq(counted[1], hes_ess_problem_count());
    ck_assert_int_eq(hes_catalog_entry(n, NULL, NULL, NULL), HES_EINVAL);
}
END_TEST

/* A run of an ESS system's integrator (hes simulate) uses the system's
 * parameter values: the end state moves with a parameter set on the
 * system, and equals a run of an integrator of its own with that value. */
START_TEST(test_an_ess_systems_integrator_runs_with_the_systems_parameters)
{
    hes_system *sys = ess_system();
    const hes_ess_model *m = hes_system_ess_model(sys);
    const hes_param *k = hes_system_param_info(sys, 0);
    double value = k->value * 1.25, x0[8] = { 0 };
    for (int i = 0; i < m->n; i++)
        x0[i] = m->orbit_x0 ? m->orbit_x0[i] : 0.5;
    ck_assert_int_eq(hes_system_set_param(sys, k->name, value), HES_OK);
    hes_ess *ess = hes_system_ess(sys);
    ck_assert_double_eq(hes_ess_params(ess)[0], value);

    hes_ess *own;
    ck_assert_int_eq(hes_ess_new(m, &own, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_set_param(own, k->name, value), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    hes_ess_result a, b;
    ck_assert_int_eq(hes_ess_run(ess, &o, 0.0, x0, 1.0, &a), HES_OK);
    ck_assert_int_eq(hes_ess_run(own, &o, 0.0, x0, 1.0, &b), HES_OK);
    for (int i = 0; i < m->n; i++)
        ck_assert_double_eq(a.x_end[i], b.x_end[i]);
    hes_ess_result_free(&a);
    hes_ess_result_free(&b);
    hes_ess_destroy(own);
    hes_system_destroy(sys);
}
END_TEST

static Suite *pipeline_suite(void)
{
    Suite *s = suite_create("pipeline");
    TCase *tc = tcase_create("both kinds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_analyze_takes_both_kinds_and_checks_against_differences);
    tcase_add_test(tc, test_ess_system_equals_the_integrators_own_search);
    tcase_add_test(tc, test_sweep_takes_both_kinds_and_each_row_is_the_analysis);
    tcase_add_test(tc, test_shape_takes_the_hybrid_kind_and_refuses_the_ess_kind_saying_why);
    tcase_add_test(tc, test_what_needs_modes_refuses_an_ess_system);
    tcase_add_test(tc, test_settings_and_ess_options_are_one_vocabulary);
    tcase_add_test(tc, test_a_sweep_file_resumes_from_the_library_keeping_valid_rows);
    tcase_add_test(tc, test_one_way_from_a_name_or_a_plugin_to_a_system_and_one_catalog);
    tcase_add_test(tc, test_an_ess_systems_integrator_runs_with_the_systems_parameters);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pipeline_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
