/*
 * test_tangent.c - a mode whose state lives on a manifold (hes_mode's
 * tangent-space chart): the torque-free rigid body of tests/rigid_body.c,
 * whose attitude is a unit quaternion, analysed in tangent coordinates.
 * Its multipliers in closed form (derived in tests/rigid_body.c): about
 * the intermediate axis exp(+-lambda T), lambda = Omega sqrt((I2 - I1)
 * (I3 - I2) / (I1 I3)), about the major axis exp(+-i mu T), mu = Omega
 * sqrt((I3 - I2)(I3 - I1) / (I1 I2)), and four multipliers 1 (three
 * attitudes, the spin rate) besides.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rigid_body.h"
#include "testutil.h"

enum { NX = RB_NX, NT = RB_NT };

static hes_system *body(const hes_model *m, int axis, double I3)
{
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "axis", axis), HES_OK);
    ck_assert_int_eq(hes_system_set_param(sys, "I3", I3), HES_OK);
    return sys;
}

static double qnorm_err(const double *x)
{
    return fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]) - 1.0);
}

/* The multipliers within tol of 1. */
static int count_at_one(const hes_stability *st, double tol)
{
    int k = 0;
    for (int i = 0; i < st->n_mult; i++)
        k += hypot(st->re[i] - 1.0, st->im[i]) < tol;
    return k;
}

/* max |M - M_fd| / max(1, max |M_fd|), and the fd matrix's size */
static double check_rel(const hes_analysis *a)
{
    int n = a->mono.n;
    const double *M = a->mono.proj;
    double big = 1.0;
    for (int i = 0; i < n * n; i++)
        big = fmax(big, fabs(M[i]));
    return a->check_max_abs_diff / big;
}

START_TEST(intermediate_axis_is_unstable)
{
    hes_model m = *test_rigid_body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 1, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    double I1 = 1, I2 = 2, I3 = 3, W = 1, T = 2 * M_PI;
    double lambda = W * sqrt((I2 - I1) * (I3 - I2) / (I1 * I3)), mu = exp(lambda * T);
    ck_assert_int_eq(a.orbit.n, NX);
    ck_assert_int_eq(a.mono.n, NT);
    ck_assert_int_eq(hes_analysis_dim(&a), NX);
    ck_assert_int_eq(hes_analysis_tangent_dim(&a), NT);
    ck_assert_int_ge(a.orbit.iterations, 1); /* the guess was off */
    ck_assert_int_eq(a.stab.n_mult, NT - 1);
    double rel = fabs(a.stab.re[0] - mu) / mu;
    printf("intermediate axis: leading multiplier %.15g, exp(lambda T) = %.15g (rel. %.2g); "
           "smallest %.15g, exp(-lambda T) = %.15g\n", a.stab.re[0], mu, rel,
           a.stab.re[NT - 2], 1 / mu);
    ck_assert_msg(rel < 1e-8, "leading multiplier %.15g, exp(lambda T) = %.15g",
                  a.stab.re[0], mu);
    ck_assert(fabs(a.stab.im[0]) == 0.0);
    ck_assert_msg(fabs(a.stab.re[NT - 2] * mu - 1.0) < 1e-8, "smallest %.15g, exp(-lambda T) %.15g",
                  a.stab.re[NT - 2], 1 / mu);
    /* the four symmetry multipliers: three attitudes, the spin rate */
    ck_assert_int_eq(count_at_one(&a.stab, 1e-5), 4);
    ck_assert_int_eq(a.stab.verdict, HES_UNSTABLE);
    /* the analysed matrix against central differences of the full flow */
    ck_assert(a.have_check);
    printf("intermediate axis: max |P - P_fd| = %.3g (relative %.3g)\n", a.check_max_abs_diff,
           check_rel(&a));
    ck_assert_msg(check_rel(&a) < 1e-6, "fd check %.3g", check_rel(&a));
    /* the orbit: spin about y, transverse rates solved to 0 */
    ck_assert(fabs(a.orbit.x0[5] - W) < 1e-12);
    ck_assert(fabs(a.orbit.x0[4]) < 1e-12 && fabs(a.orbit.x0[6]) < 1e-12);
    for (int k = 0; k < a.orbit.traj.n_events; k++)
        ck_assert(qnorm_err(a.orbit.traj.events[k].x_plus) < 1e-12);
    char *json = hes_analysis_json(sys, &a);
    ck_assert_ptr_nonnull(json);
    const char *names = strstr(json, "\"tangent_names\": [");
    ck_assert_ptr_nonnull(names);
    for (int k = 0; k < NT; k++) { /* in order, before the next key */
        char quoted[16];
        snprintf(quoted, sizeof quoted, "\"%s\"", test_rigid_body_tangent_names[k]);
        const char *at = strstr(names, quoted);
        ck_assert_ptr_nonnull(at);
        ck_assert(at < strstr(names, "]"));
        names = at;
    }
    free(json);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

START_TEST(major_axis_is_marginal)
{
    hes_model m = *test_rigid_body_model(2);
    hes_system *sys = body(&m, 2, 4.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 1, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    double I1 = 1, I2 = 2, I3 = 4, W = 1, T = 2 * M_PI;
    double mu = W * sqrt((I3 - I2) * (I3 - I1) / (I1 * I2));
    double complex e = cexp(I * mu * T);
    ck_assert_int_eq(a.stab.n_mult, NT - 1);
    for (int i = 0; i < a.stab.n_mult; i++)
        ck_assert_msg(fabs(a.stab.abs[i] - 1.0) < 1e-8, "|multiplier %d| = %.15g", i,
                      a.stab.abs[i]);
    ck_assert_int_eq(count_at_one(&a.stab, 1e-5), 4);
    int pair = 0;
    for (int i = 0; i < a.stab.n_mult; i++)
        pair += cabs(a.stab.re[i] + I * fabs(a.stab.im[i]) - (creal(e) + I * fabs(cimag(e)))) <
                1e-8;
    printf("major axis: psi %.15g, psi_tol %.3g, the pair exp(+-i mu T) = %.15g +- %.15gi "
           "found %d times, fd check %.3g\n", a.stab.psi, a.stab.psi_tol, creal(e),
           fabs(cimag(e)), pair, check_rel(&a));
    ck_assert_int_eq(pair, 2);
    ck_assert_int_eq(a.stab.verdict, HES_MARGINAL);
    ck_assert_msg(check_rel(&a) < 1e-6, "fd check %.3g", check_rel(&a));
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

/* normalize: every event's post-event state and every start lie on the
 * unit sphere, over many periods from a start off it. */
START_TEST(normalize_keeps_the_quaternion_unit)
{
    hes_model m = *test_rigid_body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    double x0[NX] = { 1.1, 0.02, 0.0, 0.0, 0.01, 1.0, 0.02, 0.0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.section = 0;
    o.n_section = 20;
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_events, 20);
    double worst = 0;
    for (int k = 0; k < tr.n_phases; k++)
        worst = fmax(worst, qnorm_err(tr.phases[k].x0));
    for (int k = 0; k < tr.n_events; k++)
        worst = fmax(worst, qnorm_err(tr.events[k].x_plus));
    printf("normalize: worst | |q| - 1 | at starts and events over 20 periods: %.3g\n", worst);
    ck_assert(worst < 1e-12);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
}
END_TEST

/* A perturbed start's error after a period, through retract and local,
 * grows as the unstable multiplier says. */
START_TEST(trials_perturb_in_tangent_coordinates)
{
    hes_model m = *test_rigid_body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_trials t;
    ck_assert_int_eq(hes_trials_run(sys, &a.orbit, 4, 1e-6, 2, 7, 1e-9, &t), HES_OK);
    for (int i = 0; i < 4; i++) {
        const hes_trial *tr = &t.trials[i];
        ck_assert_int_eq(tr->failure, HES_OK);
        ck_assert(qnorm_err(tr->x0) < 1e-15);
        ck_assert(tr->error[1] < 1e-6 * a.stab.psi * a.stab.psi * 2 + 1e-9);
    }
    ck_assert_int_eq(t.converged, 0);
    hes_trials_free(&t);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

static hes_status validate(hes_model *m, char *msg)
{
    hes_error err;
    hes_system *sys = NULL;
    hes_status st = hes_system_new(m, &sys, &err);
    snprintf(msg, 512, "%s", err.message);
    hes_system_destroy(sys);
    return st;
}

START_TEST(validation_of_charts)
{
    hes_model m = *test_rigid_body_model(1);
    hes_mode md = test_rigid_body_modes[0];
    char msg[512];
    m.modes = &md;
    ck_assert_int_eq(validate(&m, msg), HES_OK);
    md.local = NULL; /* a chart is all three */
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "local is NULL"));
    md = test_rigid_body_modes[0];
    md.retract = NULL;
    md.local = NULL;
    md.tangent = NULL; /* tdim < dim without a chart */
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "needs a chart"));
    md = test_rigid_body_modes[0];
    md.tdim = NX + 1;
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "tdim"));
    md = test_rigid_body_modes[0];
    static const int beyond[] = { 3, 7 }; /* 7 is a state index, not a tangent one */
    m.orbit.free_states = beyond;
    ck_assert_int_eq(validate(&m, msg), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(msg, "tangent space"));
}
END_TEST

/* What does not support a state on a manifold says so, naming the mode. */
START_TEST(refusals_name_the_mode)
{
    hes_model m = *test_rigid_body_model(1);
    hes_system *sys = body(&m, 1, 3.0);
    hes_colloc *c = NULL;
    ck_assert_int_eq(hes_colloc_new(sys, NULL, &c), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "mode 'spin'"));
    hes_analysis a;
    ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_shape *sh = NULL;
    ck_assert_int_eq(hes_shape_new(sys, &a, 0, NULL, &sh), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(hes_system_errmsg(sys), "mode 'spin'"));
    /* continuation takes natural steps on a manifold and refuses
       pseudo-arclength, naming the mode */
    hes_continuation cont;
    hes_error err;
    hes_continuation_options co;
    hes_continuation_options_init(&co);
    co.method = HES_CONT_ARCLENGTH;
    ck_assert_int_eq(hes_continue(sys, "I1", 1.0, 1.1, &co, &cont, &err), HES_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "mode 'spin'"));
    hes_continuation_free(&cont);
    hes_analysis_free(&a);
    hes_system_destroy(sys);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tangent");
    TCase *tc = tcase_create("rigid body");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, intermediate_axis_is_unstable);
    tcase_add_test(tc, major_axis_is_marginal);
    tcase_add_test(tc, normalize_keeps_the_quaternion_unit);
    tcase_add_test(tc, trials_perturb_in_tangent_coordinates);
    tcase_add_test(tc, validation_of_charts);
    tcase_add_test(tc, refusals_name_the_mode);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
