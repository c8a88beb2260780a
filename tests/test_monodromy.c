/*
 * test_monodromy.c - hes_monodromy_compute: the factors of a period (one
 * variational matrix per phase, one saltation matrix per event), their
 * product Phi, the return-map Jacobian P of an autonomous orbit and its
 * section normal, and the arguments it refuses.
 *
 * Independent computations: the paddle juggler's factors in closed form
 * (free flight A = [[1, T/2], [0, 1]], the impact's Xi of paper eq. 9, the
 * identity apex event); the elastic ball bouncing between apexes
 * (test_zeno_ball with e = 1), whose factors, Phi = [[1, 0], [2/t, 1]] and
 * P = diag(1, 0) follow from y' = v, v' = -g with the fall time
 * t = sqrt(2 h / g) (P is also the Jacobian of the energy-conserving apex
 * map (y, v) -> (y + v^2 / 2g, 0) at v = 0); the matrix product of the
 * factors computed here; and for the knee biped, whose modes change
 * dimension (6 -> 4 -> 6), central differences of the full nonlinear return
 * map (hes_orbit_return_map: re-simulations, no saltation matrix).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testmodels.h"
#include "testutil.h"

static hes_system *create(const hes_model *m)
{
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

/* c = a b, a m x k, b k x n, column-major. */
static void matmul(int m, int k, int n, const double *a, const double *b, double *c)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < k; l++)
                s += a[i + l * m] * b[l + j * k];
            c[i + j * m] = s;
        }
}

/* max |a - b| / max(1, max |b|) over n entries. */
static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return d / fmax(1.0, s);
}

/* The product F_k ... F_1 of the factors, computed here (n0 x n0). */
static void product_of_factors(const hes_monodromy *mono, double *out)
{
    int n0 = mono->n, rows = n0;
    double *M = calloc((size_t)16 * 16, sizeof *M), *T = calloc((size_t)16 * 16, sizeof *T);
    ck_assert(n0 <= 16);
    for (int i = 0; i < n0; i++)
        M[i + i * n0] = 1.0;
    for (int k = 0; k < mono->n_factors; k++) {
        const hes_factor *f = &mono->factors[k];
        ck_assert_int_eq(f->cols, rows);
        matmul(f->rows, f->cols, n0, f->m, M, T);
        memcpy(M, T, sizeof(double) * (size_t)f->rows * n0);
        rows = f->rows;
    }
    ck_assert_int_eq(rows, n0);
    memcpy(out, M, sizeof(double) * (size_t)n0 * n0);
    free(M);
    free(T);
}

/* ------------------------------------------------------------- juggler */

/* Rounding only separates the library's product from the one here, but the
 * factors themselves come from CVODES (rtol = atol = 1e-12) and the orbit
 * from Newton (newton_tol 1e-10): 1e-9 relative leaves a factor 10 over the
 * accuracy the monodromy reports (mono.accuracy = 1e-10). */
#define FACTOR_TOL 1e-9

START_TEST(test_juggler_period_has_the_factors_A_Xi_A_I_in_closed_form)
{
    hes_system *sys = create(hes_problem_find("paddle-juggler"));
    const double alpha = 0.5, g = 9.81, T = 0.5, a = -5.45; /* the defaults */
    hes_orbit orbit;
    ck_assert_msg(hes_orbit_find(sys, &orbit) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &orbit.traj, 0, &mono), HES_OK);
    const hes_model *m = hes_system_model(sys);
    int impact = hes_model_transition_index(m, "impact"), apex = hes_model_transition_index(m, "apex");

    /* apex -> flight -> impact -> flight -> apex: four factors, 2 x 2 each.
     * The stroboscopic period ends at t0 + T, where the apex is in exact
     * arithmetic; when rounding puts the apex event before T, a phase of
     * length ~1e-16 (A = I) follows it. */
    ck_assert_int_eq(mono.n, 2);
    ck_assert_int_eq(mono.autonomous, 0);
    ck_assert_ptr_null(mono.proj);
    ck_assert_ptr_null(mono.normal);
    ck_assert_int_ge(mono.n_factors, 4);
    ck_assert_int_le(mono.n_factors, 5);
    if (mono.n_factors == 5) {
        const hes_factor *f = &mono.factors[4];
        ck_assert_int_eq(f->kind, HES_FACTOR_PHASE);
        ck_assert_double_eq_tol(f->t, T, 1e-12);
        const double I2[4] = { 1, 0, 0, 1 };
        ck_assert_double_lt(rel_diff(f->m, I2, 4), 1e-12);
    }
    const hes_factor_kind kinds[4] = { HES_FACTOR_PHASE, HES_FACTOR_EVENT, HES_FACTOR_PHASE,
                                       HES_FACTOR_EVENT };
    const int index[4] = { 0, impact, 0, apex };
    double vP = g * T * (1 - alpha) / (2 * (1 + alpha)), vB = -g * T / 2;
    const double A[4] = { 1, 0, T / 2, 1 };
    const double Xi[4] = { -alpha, (1 + alpha) * (a + g) / (vP - vB), 0, -alpha };
    const double I[4] = { 1, 0, 0, 1 };
    const double *want[4] = { A, Xi, A, I };
    const double t_end[4] = { T / 2, T / 2, T, T };
    for (int k = 0; k < 4; k++) {
        const hes_factor *f = &mono.factors[k];
        ck_assert_int_eq(f->kind, kinds[k]);
        ck_assert_int_eq(f->index, index[k]);
        ck_assert_int_eq(f->rows, 2);
        ck_assert_int_eq(f->cols, 2);
        ck_assert_double_eq_tol(f->t, t_end[k], 1e-9);
        double d = rel_diff(f->m, want[k], 4);
        ck_assert_msg(d < FACTOR_TOL, "factor %d: [%.15g %.15g; %.15g %.15g], rel. diff %g", k,
                      f->m[0], f->m[2], f->m[1], f->m[3], d);
    }
    /* and Phi is their product, to rounding */
    double prod[4];
    product_of_factors(&mono, prod);
    ck_assert_double_lt(rel_diff(mono.phi, prod, 4), 1e-14);
    hes_monodromy_free(&mono);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------ the elastic ball */

/* The elastic ball between apexes, from h = 1 (the orbit spec's guess, a
 * member of the neutral family: Newton starts on it). */
static hes_system *elastic_ball(hes_orbit *orbit)
{
    hes_system *sys = create(&test_zeno_ball);
    ck_assert_int_eq(hes_system_set_param(sys, "e", 1.0), HES_OK);
    ck_assert_msg(hes_orbit_find(sys, orbit) == HES_OK, "%s", hes_system_errmsg(sys));
    return sys;
}

START_TEST(test_elastic_ball_monodromy_and_return_map_equal_their_closed_forms)
{
    hes_orbit orbit;
    hes_system *sys = elastic_ball(&orbit);
    const double g = 9.81, h = orbit.x0[0], t = sqrt(2 * h / g);
    ck_assert_double_eq_tol(h, 1.0, 1e-9);
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &orbit.traj, 1, &mono), HES_OK);
    ck_assert_int_eq(mono.autonomous, 1);
    ck_assert_int_eq(mono.n_factors, 4);
    /* fall t, bounce Xi = DxR + (F+ - DxR F-) Dxg / (Dxg F-) with v- = -g t,
     * rise t, apex (identity reset, F+ = F-: Xi = I) */
    const double A[4] = { 1, 0, t, 1 }, Xi[4] = { -1, 2 / t, 0, -1 }, I[4] = { 1, 0, 0, 1 };
    const double *want[4] = { A, Xi, A, I };
    for (int k = 0; k < 4; k++) {
        double d = rel_diff(mono.factors[k].m, want[k], 4);
        ck_assert_msg(d < FACTOR_TOL, "factor %d: rel. diff %g", k, d);
    }
    const double phi[4] = { 1, 2 / t, 0, 1 }, P[4] = { 1, 0, 0, 0 };
    ck_assert_msg(rel_diff(mono.phi, phi, 4) < FACTOR_TOL, "Phi = [%.15g %.15g; %.15g %.15g]",
                  mono.phi[0], mono.phi[2], mono.phi[1], mono.phi[3]);
    ck_assert_msg(rel_diff(mono.proj, P, 4) < FACTOR_TOL, "P = [%.15g %.15g; %.15g %.15g]",
                  mono.proj[0], mono.proj[2], mono.proj[1], mono.proj[3]);
    /* the section is v = 0: its unit normal is +-(0, 1) */
    ck_assert_double_eq_tol(fabs(mono.normal[1]), 1.0, 1e-12);
    ck_assert_double_eq_tol(mono.normal[0], 0.0, 1e-12);
    hes_monodromy_free(&mono);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

/* A trajectory that is not a period is still a product of factors: from the
 * apex over the bounce to 1.5 t, Phi = A(t/2) Xi A(t). */
START_TEST(test_non_autonomous_monodromy_of_any_stretch_is_the_product_of_its_factors)
{
    hes_orbit orbit;
    hes_system *sys = elastic_ball(&orbit);
    const double g = 9.81, t = sqrt(2 / g);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 1.5 * t;
    o.sensitivities = 1;
    o.after_transition = hes_model_transition_index(&test_zeno_ball, "apex");
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 1);
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &traj, 0, &mono), HES_OK);
    ck_assert_int_eq(mono.n_factors, 3);
    /* A(t/2) [[-1, 0], [2/t, -1]] A(t) = [[0, -t/2], [2/t, 1]] */
    const double want[4] = { 0, 2 / t, -t / 2, 1 };
    ck_assert_msg(rel_diff(mono.phi, want, 4) < FACTOR_TOL, "Phi = [%.15g %.15g; %.15g %.15g]",
                  mono.phi[0], mono.phi[2], mono.phi[1], mono.phi[3]);
    hes_monodromy_free(&mono);

    /* ... but as an autonomous period it must end with its section event */
    ck_assert_int_eq(hes_monodromy_compute(sys, &traj, 1, &mono), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "section event"));
    ck_assert_ptr_null(mono.phi);
    ck_assert_ptr_null(mono.factors);
    hes_traj_free(&traj);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_trajectory_without_sensitivities_is_refused)
{
    hes_orbit orbit;
    hes_system *sys = elastic_ball(&orbit);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = hes_model_transition_index(&test_zeno_ball, "apex");
    o.n_section = 1;
    o.after_transition = o.section;
    o.sensitivities = 0;
    const double x0[2] = { 1.0, 0.0 };
    hes_traj traj;
    ck_assert_int_eq(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &traj), HES_OK);
    ck_assert_int_eq(traj.n_events, 2); /* a whole period, without A */
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &traj, 1, &mono), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "sensitivities"));
    ck_assert_int_eq(hes_monodromy_compute(sys, &traj, 0, &mono), HES_EINVAL);
    ck_assert_int_eq(hes_monodromy_compute(sys, NULL, 0, &mono), HES_EINVAL);
    hes_traj empty = { 0 };
    ck_assert_int_eq(hes_monodromy_compute(sys, &empty, 0, &mono), HES_EINVAL);
    hes_monodromy_free(&mono); /* nothing to free after a refusal */
    hes_traj_free(&traj);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

/* ---------------------------------------------------------- knee biped */

START_TEST(test_knee_biped_factors_follow_the_modes_and_multiply_to_phi)
{
    const hes_model *m = hes_problem_find("knee-biped");
    hes_system *sys = create(m);
    hes_orbit orbit;
    ck_assert_msg(hes_orbit_find(sys, &orbit) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &orbit.traj, 1, &mono), HES_OK);
    const hes_traj *tr = &orbit.traj;
    ck_assert_int_eq(mono.n, m->modes[orbit.mode].dim);
    ck_assert_int_eq(mono.n_factors, tr->n_phases + tr->n_events);
    int dims_changed = 0;
    for (int k = 0; k < mono.n_factors; k++) {
        const hes_factor *f = &mono.factors[k];
        if (k % 2 == 0) { /* phase k/2: its mode's dimension, square */
            const hes_phase *ph = &tr->phases[k / 2];
            ck_assert_int_eq(f->kind, HES_FACTOR_PHASE);
            ck_assert_int_eq(f->index, ph->mode);
            ck_assert_int_eq(f->rows, m->modes[ph->mode].dim);
            ck_assert_int_eq(f->cols, m->modes[ph->mode].dim);
        } else { /* event: n_to x n_from */
            const hes_event *ev = &tr->events[k / 2];
            const hes_transition *T = &m->transitions[ev->transition];
            ck_assert_int_eq(f->kind, HES_FACTOR_EVENT);
            ck_assert_int_eq(f->index, ev->transition);
            ck_assert_int_eq(f->rows, m->modes[T->to].dim);
            ck_assert_int_eq(f->cols, m->modes[T->from].dim);
            dims_changed += f->rows != f->cols;
            ck_assert_double_eq(f->t, ev->t);
        }
    }
    ck_assert_int_eq(dims_changed, 2); /* kneestrike 6 -> 4, heelstrike 4 -> 6 */
    ck_assert_int_eq(mono.factors[mono.n_factors - 1].index, m->orbit.section);
    double prod[36];
    product_of_factors(&mono, prod);
    /* the same products in the same order: rounding only */
    ck_assert_double_lt(rel_diff(mono.phi, prod, mono.n * mono.n), 1e-13);
    hes_monodromy_free(&mono);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(test_knee_biped_return_map_jacobian_equals_central_differences)
{
    const hes_model *m = hes_problem_find("knee-biped");
    hes_system *sys = create(m);
    hes_orbit orbit;
    ck_assert_msg(hes_orbit_find(sys, &orbit) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &orbit.traj, 1, &mono), HES_OK);
    int n = mono.n;
    ck_assert_int_le(n, 6);
    ck_assert_ptr_nonnull(mono.proj);
    ck_assert_ptr_nonnull(mono.normal);

    /* normal is a unit vector and normal^T P = 0 (rounding of a product of
     * O(1)..O(10) entries: 1e-12 relative to |P|) */
    double nn = 0, pmax = 0;
    for (int i = 0; i < n; i++)
        nn += mono.normal[i] * mono.normal[i];
    ck_assert_double_eq_tol(nn, 1.0, 1e-12);
    for (int i = 0; i < n * n; i++)
        pmax = fmax(pmax, fabs(mono.proj[i]));
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += mono.normal[i] * mono.proj[i + j * n];
        ck_assert_msg(fabs(s) < 1e-12 * fmax(1, pmax), "(normal^T P)[%d] = %g", j, s);
    }

    /* P against central differences of the full return map.  Step 1e-6:
     * truncation ~h^2 |D^3| ~ 1e-11, integration error 1e-12 / h ~ 1e-6;
     * 1e-5 relative to |P| allows a factor 10 over the latter. */
    double xp[6], xm[6], rp[6], rm[6], fd[36];
    for (int j = 0; j < n; j++) {
        double h = 1e-6 * fmax(1.0, fabs(orbit.x0[j]));
        memcpy(xp, orbit.x0, sizeof(double) * (size_t)n);
        memcpy(xm, orbit.x0, sizeof(double) * (size_t)n);
        xp[j] += h;
        xm[j] -= h;
        ck_assert_int_eq(hes_orbit_return_map(sys, xp, rp), HES_OK);
        ck_assert_int_eq(hes_orbit_return_map(sys, xm, rm), HES_OK);
        for (int i = 0; i < n; i++)
            fd[i + j * n] = (rp[i] - rm[i]) / (2 * h);
    }
    double d = rel_diff(mono.proj, fd, n * n);
    ck_assert_msg(d < 1e-5, "|P - FD| / |FD| = %g", d);
    hes_monodromy_free(&mono);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

/* A stretch of the knee biped's period that ends in the locked mode (4
 * states) after starting in the unlocked one (6) has no square monodromy. */
START_TEST(test_stretch_ending_in_another_dimension_is_refused)
{
    const hes_model *m = hes_problem_find("knee-biped");
    hes_system *sys = create(m);
    hes_orbit orbit;
    ck_assert_msg(hes_orbit_find(sys, &orbit) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_traj part = orbit.traj; /* shares the arrays: not freed */
    ck_assert_int_ge(part.n_phases, 2);
    part.n_phases = 2;
    part.n_events = 1;
    ck_assert_int_ne(m->modes[part.phases[1].mode].dim, m->modes[part.phases[0].mode].dim);
    hes_monodromy mono;
    ck_assert_int_eq(hes_monodromy_compute(sys, &part, 0, &mono), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "dimension"));
    ck_assert_ptr_null(mono.phi);
    hes_orbit_free(&orbit);
    hes_system_destroy(sys);
}
END_TEST

static Suite *monodromy_suite(void)
{
    Suite *s = suite_create("monodromy");
    TCase *closed = tcase_create("closed forms");
    tcase_set_timeout(closed, 60);
    tcase_add_test(closed, test_juggler_period_has_the_factors_A_Xi_A_I_in_closed_form);
    tcase_add_test(closed, test_elastic_ball_monodromy_and_return_map_equal_their_closed_forms);
    tcase_add_test(closed, test_non_autonomous_monodromy_of_any_stretch_is_the_product_of_its_factors);
    suite_add_tcase(s, closed);
    TCase *knee = tcase_create("dimension changes");
    tcase_set_timeout(knee, 120);
    tcase_add_test(knee, test_knee_biped_factors_follow_the_modes_and_multiply_to_phi);
    tcase_add_test(knee, test_knee_biped_return_map_jacobian_equals_central_differences);
    suite_add_tcase(s, knee);
    TCase *err = tcase_create("refusals");
    tcase_set_timeout(err, 60);
    tcase_add_test(err, test_trajectory_without_sensitivities_is_refused);
    tcase_add_test(err, test_stretch_ending_in_another_dimension_is_refused);
    suite_add_tcase(s, err);
    return s;
}

int main(void)
{
    return test_run_suite(monodromy_suite());
}
