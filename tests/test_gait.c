/*
 * test_gait.c - collocation with inputs at the nodes and virtual events on
 * the knee biped (problems/knee_biped.c), and gaits as models of their own
 * (lib/shaping/gait.c, lib/io/gait_json.c): every derivative the NLP uses against
 * central differences; psi of the collocated gait against the independent
 * shooting analysis of its derived model (CVODES, phases as modes, inputs
 * as functions of the phase time); a virtual event with equal inputs on both
 * sides leaves psi unchanged; a gait file reads back bit for bit.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "shaping/colloc_internal.h"
#include "testutil.h"

static const char *const inputs[] = { "hip_torque", "knee_torque", "ankle_torque" };

/* The passive walker on its default slope, collocated with the three
 * torques as inputs and the given virtual events. */
static hes_colloc *biped_colloc_jobs(hes_system *sys, int nodes, int v0, int v1, int constant,
                                     const double *lo, const double *hi, int jobs)
{
    int counts[2] = { v0, v1 };
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    hes_colloc *c = NULL;
    o.jobs = jobs;
    o.nodes = nodes;
    o.n_inputs = 3;
    o.inputs = inputs;
    o.input_lo = lo;
    o.input_hi = hi;
    o.constant_inputs = constant;
    o.virtual_events = counts;
    o.path = 1;
    ck_assert_msg(hes_colloc_new(sys, &o, &c) == HES_OK, "%s", hes_system_errmsg(sys));
    return c;
}

static hes_colloc *biped_colloc(hes_system *sys, int nodes, int v0, int v1, int constant,
                                const double *lo, const double *hi)
{
    return biped_colloc_jobs(sys, nodes, v0, v1, constant, lo, hi, 1);
}

/* max |a - b| / max(1, |b|) */
static double rel_err(double a, double b)
{
    return fabs(a - b) / fmax(1.0, fabs(b));
}

START_TEST(test_gait_nlp_derivatives_equal_central_differences)
{
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    hes_colloc *c = biped_colloc(sys, 5, 1, 1, 0, NULL, NULL);
    int nv = hes_colloc_nvars(c), nc = hes_colloc_ncons(c), ni = hes_colloc_nineq(c);
    ck_assert_int_gt(ni, 0);
    double *z = malloc(sizeof(double) * (size_t)nv), *J = malloc(sizeof(double) * (size_t)nc * nv),
           *Jp = malloc(sizeof(double) * (size_t)ni * nv), *cp = malloc(sizeof(double) * (size_t)(nc + ni)),
           *cm = malloc(sizeof(double) * (size_t)(nc + ni)), *cv = malloc(sizeof(double) * (size_t)(nc + ni)),
           *ge = malloc(sizeof(double) * (size_t)nv), *gp = malloc(sizeof(double) * (size_t)nv);
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    /* inputs that differ from node to node: every variable after the
     * states and durations gets a deterministic pattern where it is 0 */
    for (int j = 0; j < nv; j++)
        if (z[j] == 0.0)
            z[j] = 0.05 * sin(1.3 * j);
    ck_assert_int_eq(hes__colloc_constraints(c, z, cv, J), HES_OK);
    ck_assert_int_eq(hes__colloc_path(c, z, cv, Jp), HES_OK);
    double psi, e = hes__colloc_energy(c, z, ge), worst_c = 0, worst_p = 0, worst_e = 0, worst_g = 0;
    double smooth, worst_s = 0, *gs = malloc(sizeof(double) * (size_t)nv);
    int fb;
    ck_assert_int_eq(hes_colloc_psi(c, z, &psi, gp, &fb), HES_OK);
    ck_assert_int_eq(fb, 0);
    /* the smooth measure weighs every multiplier: in the 4-state phases
     * more rank-one pairs than states, so its gradient takes the step
     * factors' other branch there (colloc_psi.c, step_gradient) */
    ck_assert_int_eq(hes__colloc_measure(c, z, HES_MEASURE_SMOOTH, &smooth, gs, &fb), HES_OK);
    ck_assert_int_eq(fb, 0);
    ck_assert(e > 0);
    for (int j = 0; j < nv; j++) {
        double h = 1e-6 * fmax(1.0, fabs(z[j])), zj = z[j];
        z[j] = zj + h;
        ck_assert_int_eq(hes__colloc_constraints(c, z, cp, NULL), HES_OK);
        ck_assert_int_eq(hes__colloc_path(c, z, cp + nc, NULL), HES_OK);
        double ep = hes__colloc_energy(c, z, NULL);
        z[j] = zj - h;
        ck_assert_int_eq(hes__colloc_constraints(c, z, cm, NULL), HES_OK);
        ck_assert_int_eq(hes__colloc_path(c, z, cm + nc, NULL), HES_OK);
        double em = hes__colloc_energy(c, z, NULL);
        /* psi's reference: fourth-order differences with a step 100 times
           larger (psi's own rounding, ~1e-10 through the events' central
           differences, over h = 1e-6 was up to 2.5e-4 of noise in the
           columns of the last phase) */
        double H = 100 * h, q[4], qs[4];
        for (int s = 0; s < 4; s++) {
            z[j] = zj + (s == 0 ? -2 : s == 1 ? -1 : s == 2 ? 1 : 2) * H;
            ck_assert_int_eq(hes_colloc_psi(c, z, &q[s], NULL, NULL), HES_OK);
            ck_assert_int_eq(hes__colloc_measure(c, z, HES_MEASURE_SMOOTH, &qs[s], NULL, NULL),
                             HES_OK);
        }
        z[j] = zj;
        for (int i = 0; i < nc; i++)
            worst_c = fmax(worst_c, rel_err(J[i + (size_t)j * nc], (cp[i] - cm[i]) / (2 * h)));
        for (int i = 0; i < ni; i++)
            worst_p = fmax(worst_p, rel_err(Jp[i + (size_t)j * ni], (cp[nc + i] - cm[nc + i]) / (2 * h)));
        worst_e = fmax(worst_e, rel_err(ge[j], (ep - em) / (2 * h)));
        worst_g = fmax(worst_g, rel_err(gp[j], (q[0] - 8 * q[1] + 8 * q[2] - q[3]) / (12 * H)));
        worst_s = fmax(worst_s, rel_err(gs[j], (qs[0] - 8 * qs[1] + 8 * qs[2] - qs[3]) / (12 * H)));
    }
    ck_assert_msg(worst_c < 1e-6, "equality Jacobian off by %.3g", worst_c);
    /* the crossing rate at heelstrike is Dxg F with Dxg itself from central
     * differences (the guard goes through the lift), so its derivative is a
     * difference of differences: 5e-6 of noise on both sides */
    ck_assert_msg(worst_p < 2e-5, "path Jacobian off by %.3g", worst_p);
    ck_assert_msg(worst_e < 1e-8, "energy gradient off by %.3g", worst_e);
    /* The walker's field Jacobian is analytic (hes_mech_field_dx), but its
     * events are differentiated by central differences (heelstrike's guard
     * through the floating-base lift, the resets), so the factor
     * derivatives at the phase ends are differences of differences, good
     * to about 1e-5 of the largest component (6e-5 of 9.4 at worst, in the
     * last phase's columns; the other variables agree to 1e-6; the SLIP test in test_collocation, all analytic, holds the same
     * code to 1e-8).  A wrong factor or a missing dependence shows up as an
     * O(1) error in whole columns. */
    double gmax = 0;
    for (int j = 0; j < nv; j++)
        gmax = fmax(gmax, fabs(gp[j]));
    ck_assert_msg(worst_g < 2e-5 * fmax(1.0, gmax), "psi gradient off by %.3g (largest %.3g, psi %.6g)",
                  worst_g, gmax, psi);
    double smax = 0;
    for (int j = 0; j < nv; j++)
        smax = fmax(smax, fabs(gs[j]));
    ck_assert_msg(worst_s < 2e-5 * fmax(1.0, smax), "smooth gradient off by %.3g (largest %.3g)",
                  worst_s, smax);
    free(gs);
    free(z); free(J); free(Jp); free(cp); free(cm); free(cv); free(ge); free(gp);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

/* psi's gradient differentiates a Hermite-Simpson step in its nodes'
 * states two ways (colloc_psi.c, step_gradient): along the directions of
 * the multipliers' rank-one pairs (the symmetry of second derivatives), or
 * state by state.  Independent computations of the same numbers: they
 * agree to the differences' rounding, on psi (one or two pairs per step)
 * and the smooth measure (up to ten). */
START_TEST(test_gait_psi_gradient_two_ways_agree)
{
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    hes_colloc *c = biped_colloc(sys, 5, 1, 1, 0, NULL, NULL);
    int nv = hes_colloc_nvars(c), fb;
    double *z = malloc(sizeof(double) * (size_t)nv), *g[2] = { malloc(sizeof(double) * (size_t)nv),
                                                              malloc(sizeof(double) * (size_t)nv) };
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    for (int j = 0; j < nv; j++)
        if (z[j] == 0.0)
            z[j] = 0.05 * sin(1.3 * j);
    for (int m = 0; m < 2; m++) {
        hes_measure measure = m ? HES_MEASURE_SMOOTH : HES_MEASURE_PSI;
        double v[2], worst = 0, gmax = 0;
        for (int how = 1; how <= 2; how++) {
            hes__colloc_set_step_states(c, how);
            ck_assert_int_eq(hes__colloc_measure(c, z, measure, &v[how - 1], g[how - 1], &fb),
                             HES_OK);
            ck_assert_int_eq(fb, 0);
        }
        ck_assert(v[0] == v[1]);
        for (int j = 0; j < nv; j++) {
            worst = fmax(worst, fabs(g[0][j] - g[1][j]));
            gmax = fmax(gmax, fabs(g[1][j]));
        }
        ck_assert(gmax > 1);
        ck_assert_msg(worst < 1e-8 * gmax, "%s: the two ways differ by %.3g (largest %.3g)",
                      hes_measure_name(measure), worst, gmax);
    }
    free(z); free(g[0]); free(g[1]);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

/* psi of the gait's derived model by shooting, and its section state. */
static double shooting_psi(const hes_gait *g, double *x0)
{
    hes_error msg;
    hes_model *m = NULL;
    ck_assert_msg(hes_gait_model(g, hes_problem_find("knee-biped"), &m, &msg) == HES_OK,
                  "%s", msg.message);
    hes_system *sys = test_system_of(m);
    hes_analysis res;
    ck_assert_msg(hes_analyze(sys, 0, &res) == HES_OK, "%s", hes_system_errmsg(sys));
    double psi = res.stab.psi;
    if (x0)
        memcpy(x0, res.orbit.x0, sizeof(double) * 6);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    hes_model_destroy(m);
    return psi;
}

START_TEST(test_gait_psi_matches_the_shooting_analysis_of_the_gait)
{
    /* a gait with torques that vary along it: from the passive gait with a
     * constant hip torque, made periodic by the collocation */
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    ck_assert_int_eq(hes_system_set_param(sys, "hip_torque", 0.05), HES_OK);
    hes_colloc *c = biped_colloc(sys, 11, 0, 0, 0, NULL, NULL);
    double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c)), viol, psi, x0[6];
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_msg(hes_colloc_solve(c, z, 1e-11, &viol) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_colloc_psi(c, z, &psi, NULL, NULL), HES_OK);
    hes_gait g;
    ck_assert_int_eq(hes_colloc_gait(c, z, &g), HES_OK);
    double umin = HUGE_VAL, umax = -HUGE_VAL;
    for (int i = 0; i < g.n_phases; i++)
        for (int k = 0; k < g.phases[i].u_rows * 3; k++) {
            umin = fmin(umin, g.phases[i].u[k]);
            umax = fmax(umax, g.phases[i].u[k]);
        }
    ck_assert_msg(umax - umin > 1e-3, "the inputs should vary (%g to %g)", umin, umax);
    double ps = shooting_psi(&g, x0);
    ck_assert_msg(fabs(ps - psi) < 1e-3 * ps, "collocation %.10g, shooting %.10g", psi, ps);
    /* shooting found the collocated orbit again */
    for (int r = 0; r < 6; r++)
        ck_assert_msg(fabs(x0[r] - g.phases[0].x[r]) < 1e-4, "x0[%d]: %.10g vs %.10g", r, x0[r],
                      g.phases[0].x[r]);
    hes_gait_free(&g);
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_virtual_event_with_equal_inputs_leaves_psi_unchanged)
{
    /* the passive gait (all torques 0 on both sides of every virtual event) */
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    hes_analysis base;
    ck_assert_int_eq(hes_analyze(sys, 0, &base), HES_OK);
    static const double zero[3] = { 0, 0, 0 };
    hes_colloc *c = biped_colloc(sys, 13, 2, 1, 1, zero, zero);
    double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c)), viol, psi;
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    ck_assert_msg(hes_colloc_solve(c, z, 1e-11, &viol) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(hes_colloc_phases(c), 5);
    ck_assert_int_eq(hes_colloc_psi(c, z, &psi, NULL, NULL), HES_OK);
    hes_gait g;
    ck_assert_int_eq(hes_colloc_gait(c, z, &g), HES_OK);
    double ps = shooting_psi(&g, NULL);
    /* the split orbit through its derived model (five modes, three virtual
     * saltation matrices): the same psi as the unsplit model, to the
     * integration tolerance */
    ck_assert_msg(fabs(ps - base.stab.psi) < 1e-8, "with virtual events %.12g, without %.12g", ps,
                  base.stab.psi);
    /* and the collocation's psi, to its discretisation error */
    ck_assert_msg(fabs(psi - base.stab.psi) < 1e-4, "collocation %.10g, shooting %.10g", psi,
                  base.stab.psi);
    hes_gait_free(&g);
    hes_analysis_free(&base);
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_gait_file_reads_back_bit_for_bit)
{
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    const hes_model *m = hes_problem_find("knee-biped");
    hes_colloc *c = biped_colloc(sys, 5, 1, 0, 0, NULL, NULL);
    double *z = malloc(sizeof(double) * (size_t)hes_colloc_nvars(c));
    ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
    for (int j = 0; j < hes_colloc_nvars(c); j++)
        if (z[j] == 0.0)
            z[j] = 0.1 / 3 * cos(j);
    hes_gait g, h;
    ck_assert_int_eq(hes_colloc_gait(c, z, &g), HES_OK);
    char path[] = "/tmp/hes_gait_XXXXXX";
    hes_error msg;
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_int_eq(hes_gait_write(&g, m, f), HES_OK);
    fclose(f);
    ck_assert_msg(hes_gait_read(path, m, &h, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(h.n_phases, g.n_phases);
    ck_assert_int_eq(h.n_inputs, 3);
    for (int i = 0; i < g.n_phases; i++) {
        const hes_gait_phase *a = &g.phases[i], *b = &h.phases[i];
        int n = m->modes[a->mode].dim;
        ck_assert_int_eq(a->mode, b->mode);
        ck_assert_int_eq(a->transition, b->transition);
        ck_assert_int_eq(a->is_virtual, b->is_virtual);
        ck_assert_int_eq(a->direction, b->direction);
        ck_assert(a->offset == b->offset && a->duration == b->duration);
        ck_assert_int_eq(memcmp(a->x, b->x, sizeof(double) * (size_t)(a->nodes * n)), 0);
        ck_assert_int_eq(memcmp(a->u, b->u, sizeof(double) * (size_t)(a->u_rows * 3)), 0);
    }
    ck_assert_int_eq(memcmp(g.params, h.params, sizeof(double) * (size_t)m->n_params), 0);
    hes_gait_free(&h);
    /* a gait of another problem, a missing file and a broken one are refused */
    ck_assert_int_eq(hes_gait_read(path, hes_problem_find("slip-hopper"), &h, &msg),
                     HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "knee-biped"));
    char name[64];
    ck_assert_int_eq(hes_gait_problem(path, name, sizeof name, &msg), HES_OK);
    ck_assert_str_eq(name, "knee-biped");
    ck_assert_int_eq(hes_gait_read("/nonexistent/gait.json", m, &h, &msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg.message, "/nonexistent/gait.json"));
    ck_assert_int_eq(hes_gait_problem("/nonexistent/gait.json", name, sizeof name, &msg), HES_EINVAL);
    /* a stream that cannot be written: HES_EIO */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        ck_assert_int_eq(hes_gait_write(&g, m, full), HES_EIO);
        fclose(full);
    }
    ck_assert_int_eq(hes_gait_write(&g, m, NULL), HES_EINVAL);
    f = fopen(path, "w");
    fputs("{\"format\": \"hes-gait\", \"version\": 1, \"problem\": \"knee-biped\"}", f);
    fclose(f);
    ck_assert_int_eq(hes_gait_read(path, m, &h, &msg), HES_EINVAL);
    ck_assert_int_eq(h.n_phases, 0); /* left empty */
    remove(path);
    hes_gait_free(&g);
    free(z);
    hes_colloc_destroy(c);
    hes_system_destroy(sys);
}
END_TEST

/* psi's gradient shared by a team of threads (hes_colloc_options.jobs) is
 * the serial one bit for bit, with virtual events and inputs (the factors'
 * inputs go into each thread's own system), and the colloc says when a
 * team cannot be had. */
START_TEST(test_gait_psi_gradient_on_threads_is_the_serial_one)
{
    hes_system *s1 = test_system_of(hes_problem_find("knee-biped"));
    hes_system *s3 = test_system_of(hes_problem_find("knee-biped"));
    /* a parameter off its default: the threads' systems must get it */
    ck_assert_int_eq(hes_system_set_param(s1, "slope", 0.061), HES_OK);
    ck_assert_int_eq(hes_system_set_param(s3, "slope", 0.061), HES_OK);
    hes_colloc *c1 = biped_colloc_jobs(s1, 7, 1, 1, 0, NULL, NULL, 1);
    hes_colloc *c3 = biped_colloc_jobs(s3, 7, 1, 1, 0, NULL, NULL, 3);
    int nv = hes_colloc_nvars(c1);
    ck_assert_int_eq(nv, hes_colloc_nvars(c3));
    double *z = malloc(sizeof(double) * (size_t)nv), *g1 = malloc(sizeof(double) * (size_t)nv),
           *g3 = malloc(sizeof(double) * (size_t)nv), p1, p3;
    ck_assert_int_eq(hes_colloc_guess(c1, z), HES_OK);
    for (int j = 0; j < nv; j++) /* inputs that differ from node to node */
        if (z[j] == 0.0)
            z[j] = 0.05 * sin(1.3 * j);
    int fb1, fb3;
    for (int round = 0; round < 2; round++) { /* twice: the team's threads wait and resume */
        ck_assert_int_eq(hes_colloc_psi(c1, z, &p1, g1, &fb1), HES_OK);
        ck_assert_int_eq(hes_colloc_psi(c3, z, &p3, g3, &fb3), HES_OK);
        ck_assert_int_eq(fb1, 0);
        ck_assert_int_eq(fb3, 0);
        ck_assert(p1 == p3);
        ck_assert_msg(memcmp(g1, g3, sizeof(double) * (size_t)nv) == 0,
                      "the gradient on 3 threads differs from the serial one");
        z[0] += 1e-3;
    }
    double gmax = 0;
    for (int j = 0; j < nv; j++)
        gmax = fmax(gmax, fabs(g3[j]));
    ck_assert(gmax > 0);
    free(z); free(g1); free(g3);
    hes_colloc_destroy(c1);
    hes_colloc_destroy(c3);
    /* a team too large is refused with a reason */
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    hes_colloc *c = NULL;
    o.nodes = 5;
    o.jobs = 100000;
    ck_assert_int_eq(hes_colloc_new(s1, &o, &c), HES_EINVAL);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(s1), "jobs"));
    hes_system_destroy(s1);
    hes_system_destroy(s3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gait");
    TCase *tc = tcase_create("gait");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_gait_nlp_derivatives_equal_central_differences);
    tcase_add_test(tc, test_gait_psi_gradient_two_ways_agree);
    tcase_add_test(tc, test_gait_psi_gradient_on_threads_is_the_serial_one);
    tcase_add_test(tc, test_gait_psi_matches_the_shooting_analysis_of_the_gait);
    tcase_add_test(tc, test_virtual_event_with_equal_inputs_leaves_psi_unchanged);
    tcase_add_test(tc, test_gait_file_reads_back_bit_for_bit);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
