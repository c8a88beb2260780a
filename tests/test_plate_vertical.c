/*
 * test_plate_vertical.c - the ESS paper's plate (`plate-vertical`,
 * problems/plate_vertical.c) and the ESS integrator's trajectories on it,
 * against a reference computed without the ESS integrator
 * (tests/plate_reference.c: CVODES at rtol 1e-12 with every make and break
 * of a leg located).  The model equals its statement; the reference equals
 * the hopper's closed form on one leg; and on starts where the integrator
 * once went wrong with status OK, each accepted run is within a bound
 * proportional to eps^2 of the reference (or refused with an error).
 *
 * The bound.  The method's error is C eps^2 with a C that depends on the
 * start (the rocking plate amplifies early errors): over 30 seeded starts
 * per N, correct runs have RMS / eps^2 of the positions (x, z, theta) from
 * about 5e2 to 5e4 m^-1 (the starts of the tests below: 5e2 to 7e3).  The
 * bound is 10 times the largest typical C, PLATE_C = 5e4 m^-1 (so
 * 5e5 eps^2); the wrong runs were 6e5 to 8e10 eps^2.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "plate_reference.h"
#include "testutil.h"

#define NOUT 201
#define PLATE_BOUND 5e5   /* RMS <= PLATE_BOUND eps^2 (m^-1; the header) */

static int verbose(void) { return getenv("HES_TEST_VERBOSE") != NULL; }

/* ------------------------------------------------------------ the model */

static double urand(unsigned long long *st)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

START_TEST(test_model_equals_its_statement)
{
    const int Ns[] = { 1, 2, 5, 13 };
    unsigned long long st = 12345;
    for (size_t c = 0; c < sizeof Ns / sizeof Ns[0]; c++) {
        int N = Ns[c], m = 2 * N;
        hes_ess_model *md = hes_plate_vertical_model(N);
        ck_assert_ptr_nonnull(md);
        ck_assert_int_eq(md->n, 6);
        ck_assert_int_eq(md->m, m);
        hes_ess *e;
        ck_assert_int_eq(hes_ess_new(md, &e, NULL, 0), HES_OK);
        const double *p = hes_ess_params(e);
        int *s = malloc(sizeof(int) * (size_t)m), *stance = malloc(sizeof(int) * (size_t)N);
        double *h = malloc(sizeof(double) * (size_t)m), *Dh = malloc(sizeof(double) * 6 * m),
               *hp = malloc(sizeof(double) * (size_t)m), *hm = malloc(sizeof(double) * (size_t)m);
        for (int trial = 0; trial < 20; trial++) {
            double x[6] = { 0.3 * urand(&st) - 0.15, 0.1 * urand(&st) - 0.05,
                            0.6 * urand(&st) - 0.3, 2 * urand(&st) - 1, 2 * urand(&st) - 1,
                            4 * urand(&st) - 2 };
            for (int i = 0; i < m; i++)
                s[i] = urand(&st) < 0.5 ? 1 : -1;
            for (int i = 0; i < N; i++)
                stance[i] = s[i] > 0 && s[N + i] < 0;
            double f[6], fr[6], J[36];
            ck_assert_int_eq(md->f(x, s, p, f, md->data), 0);
            plate_ref_field(&plate_ref_default, N, stance, x, fr);
            for (int k = 0; k < 6; k++)
                ck_assert_msg(fabs(f[k] - fr[k]) <= 1e-12 * (1 + fabs(fr[k])),
                              "N = %d: f[%d] = %.17g, the statement's %.17g", N, k, f[k], fr[k]);
            ck_assert_int_eq(md->h(x, p, h, md->data), 0);
            for (int i = 0; i < N; i++) {
                double pen = plate_ref_pen(&plate_ref_default, N, i, x);
                ck_assert(fabs(h[i] - pen) <= 1e-15 && h[N + i] == -h[i]);
            }
            /* Dh and df/dx against central differences */
            ck_assert_int_eq(md->Dh(x, p, Dh, md->data), 0);
            ck_assert_int_eq(md->f_dx(x, s, p, J, md->data), 0);
            for (int k = 0; k < 6; k++) {
                double xp[6], xm[6], fp[6], fm[6], d = 1e-6;
                memcpy(xp, x, sizeof xp);
                memcpy(xm, x, sizeof xm);
                xp[k] += d;
                xm[k] -= d;
                md->h(xp, p, hp, md->data);
                md->h(xm, p, hm, md->data);
                for (int i = 0; i < m; i++)
                    ck_assert_msg(fabs(Dh[i + (size_t)k * m] - (hp[i] - hm[i]) / (2 * d)) < 1e-7,
                                  "N = %d: Dh[%d][%d]", N, i, k);
                md->f(xp, s, p, fp, md->data);
                md->f(xm, s, p, fm, md->data);
                for (int i = 0; i < 6; i++) {
                    double fd = (fp[i] - fm[i]) / (2 * d);
                    ck_assert_msg(fabs(J[i + 6 * k] - fd) < 1e-6 * (1 + fabs(fd)),
                                  "N = %d: df/dx[%d][%d] = %g, central differences %g", N, i,
                                  k, J[i + 6 * k], fd);
                }
            }
        }
        free(s); free(stance); free(h); free(Dh); free(hp); free(hm);
        hes_ess_destroy(e);
        hes_plate_vertical_model_free(md);
    }
}
END_TEST

START_TEST(test_sizes_and_registry)
{
    ck_assert_ptr_null(hes_plate_vertical_model(0));
    ck_assert_ptr_null(hes_plate_vertical_model(HES_PLATE_VERTICAL_MAX_N + 1));
    hes_ess_model *md = hes_plate_vertical_model(200);
    ck_assert_ptr_nonnull(md);
    ck_assert_int_eq(md->m, 400);
    ck_assert_str_eq(md->event_names[0], "touchdown 0");
    ck_assert_str_eq(md->event_names[199], "touchdown 199");
    ck_assert_str_eq(md->event_names[200], "liftoff 0");
    ck_assert_str_eq(md->event_names[399], "liftoff 199");
    char msg[256];
    ck_assert_int_eq(hes_ess_validate(md, msg, sizeof msg), HES_OK);
    hes_plate_vertical_model_free(md);
    hes_plate_vertical_model_free(NULL);
    const hes_ess_model *reg = hes_ess_problem_find("plate-vertical");
    ck_assert_ptr_nonnull(reg);
    hes_plate_vertical_model_free((hes_ess_model *)reg);   /* ignored */
    ck_assert_int_eq(hes_ess_validate(reg, msg, sizeof msg), HES_OK);
    ck_assert_int_eq(reg->m, 20);
    ck_assert_str_eq(reg->event_names[10], "liftoff 0");
    /* the model's defaults are the reference's constants */
    const double want[6] = { plate_ref_default.g, plate_ref_default.mass,
                             plate_ref_default.inertia, plate_ref_default.K,
                             plate_ref_default.C, plate_ref_default.a };
    ck_assert_int_eq(reg->n_params, 6);
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(reg->params[k].value, want[k]);
}
END_TEST

/* -------------------------------------------------------- the reference */

/* One undamped leg under a level plate is the 1-D hopper with l0 = 0:
 * z = y - 1 for hopper-1d's closed form with k = 2000, l0 = 1. */
START_TEST(test_reference_on_one_leg_is_the_hoppers_closed_form)
{
    plate_ref_params pr = plate_ref_default;
    pr.C = 0;
    double tout[NOUT], xr[6 * NOUT], x0[6] = { 0, 0.3, 0, 0, 0, 0 };
    for (int k = 0; k < NOUT; k++)
        tout[k] = 2.0 * k / (NOUT - 1);
    char msg[256];
    long ev;
    ck_assert_msg(plate_ref_run(&pr, 1, x0, NOUT, tout, xr, &ev, msg, sizeof msg) == 0, "%s",
                  msg);
    const double hp[4] = { 9.81, 2000, 1, 1 }, y0[2] = { 1.3, 0 };
    double worst = 0, y[2];
    for (int k = 0; k < NOUT; k++) {
        ck_assert_int_eq(hes_hopper_1d_exact(hp, tout[k], y0, y), HES_OK);
        worst = fmax(worst, fmax(fabs(xr[1 + 6 * k] - (y[0] - 1)), fabs(xr[4 + 6 * k] - y[1]) / 30));
    }
    if (verbose())
        printf("reference, one leg: %ld makes and breaks, max error %.3e against the closed "
               "form\n", ev, worst);
    ck_assert_int_ge(ev, 6);
    ck_assert_msg(worst < 1e-9, "reference vs the hopper's closed form: %g", worst);
}
END_TEST

static Suite *plate_vertical_suite(void)
{
    Suite *s = suite_create("plate_vertical");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_model_equals_its_statement);
    tcase_add_test(tc, test_sizes_and_registry);
    tcase_add_test(tc, test_reference_on_one_leg_is_the_hoppers_closed_form);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(plate_vertical_suite());
}
