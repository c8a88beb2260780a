/*
 * test_symmetry.c - stability modulo a symmetry.  A point mass hops along
 * level ground: mode "air", state [x, y, vx, vy], ballistic flight; at each
 * landing (y = 0, downward) its speeds are pulled toward the gait's,
 *     vx+ = u + c (vx- - u),   vy+ = w + k (-vy- - w),
 * so the hop of speeds (u, w) repeats, shifted by u T along x (T = 2 w / g).
 * In closed form the return map's multipliers are c (vx), k (vy), the
 * trivial 0 of the section (y) and 1 for x: a neighbouring hop shifted
 * along x is the same gait.  Declared as a symmetry, x leaves the
 * analysis: psi = max(|c|, |k|) and the verdict is stable, where the full
 * map's psi is 1 (marginal).  A declared symmetry that the map does not
 * respect (both speeds at once, with x) is refused, naming them, and so are
 * counts of symmetries the state cannot hold and symmetries without names.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"

enum { P_U, P_W, P_C, P_K, P_G, NP };

static int field(double t, const double *x, const double *p, double *f, void *d)
{
    (void)t, (void)d;
    f[0] = x[2], f[1] = x[3], f[2] = 0, f[3] = -p[P_G];
    return 0;
}

static int guard(double t, const double *x, const double *p, double *g, void *d)
{
    (void)t, (void)p, (void)d;
    g[0] = x[1];
    return 0;
}

static int reset(double t, const double *x, const double *p, double *r, void *d)
{
    (void)t, (void)d;
    r[0] = x[0];
    r[1] = 0;
    r[2] = p[P_U] + p[P_C] * (x[2] - p[P_U]);
    r[3] = p[P_W] + p[P_K] * (-x[3] - p[P_W]);
    return 0;
}

static int guess(double *p, double *x0, void *d)
{
    (void)d;
    x0[0] = 0, x0[1] = 0, x0[2] = 1.1 * p[P_U], x0[3] = 0.9 * p[P_W];
    return 0;
}

/* the generators: translation along x, and (wrongly) a change of both speeds:
 * the span of e_x and e_vx (or e_vy) is invariant, since x moves with them,
 * but not that of e_x and e_vx + e_vy, the speeds relaxing at rates c != k */
static int along_x(const double *x, const double *p, double *out, void *d)
{
    (void)x, (void)p, (void)d;
    out[0] = 1, out[1] = 0, out[2] = 0, out[3] = 0;
    return 0;
}

static int along_x_and_v(const double *x, const double *p, double *out, void *d)
{
    along_x(x, p, out, d);
    out[4] = 0, out[5] = 0, out[6] = 1, out[7] = 1;
    return 0;
}

static int along_x_twice(const double *x, const double *p, double *out, void *d)
{
    along_x(x, p, out, d);
    along_x(x, p, out + 4, d);
    out[4] = 2;
    return 0;
}

static const char *const names[] = { "x", "y", "vx", "vy" };
static const hes_mode modes[] = { { .name = "air", .dim = 4, .state_names = names,
                                    .field = field } };
static const hes_transition transitions[] = {
    { .name = "land", .from = 0, .to = 0, .direction = HES_DOWN, .guard = guard,
      .reset = reset },
};
#define PARAM(NAME, VALUE) { .name = NAME, .value = VALUE, .min = -HUGE_VAL, .max = HUGE_VAL }
static const hes_param params[NP] = {
    PARAM("u", 1.0), PARAM("w", 2.0), PARAM("c", 0.5), PARAM("k", 0.3), PARAM("g", 9.81),
};
static const int sequence[] = { 0 }, free_states[] = { 2, 3 };
static const char *const sym_x[] = { "x" }, *const sym_x_v[] = { "x", "v" };

static hes_model hopper(int n_sym, hes_frame_fn sym, const char *const *sym_names)
{
    return (hes_model){
        .abi = HES_MODEL_ABI, .name = "hopper", .description = "a point mass hopping along x",
        .n_modes = 1, .modes = modes, .n_transitions = 1, .transitions = transitions,
        .n_params = NP, .params = params,
        .orbit = { .mode = 0, .section = 0, .n_sequence = 1, .sequence = sequence,
                   .n_free_states = 2, .free_states = free_states, .n_residual = 2,
                   .residual = free_states, .guess = guess, .n_symmetries = n_sym,
                   .symmetries = sym, .symmetry_names = sym_names },
        .integrator = HES_ADAMS, .max_phase_time = 100.0,
    };
}

/* The analysis with its check, and its document (doc may be NULL; free it) */
static hes_status analyze(const hes_model *m, hes_analysis *a, char *msg, char **doc)
{
    hes_system *sys = NULL;
    hes_error err;
    hes_status st = hes_system_new(m, &sys, &err);
    ck_assert_msg(st == HES_OK, "%s", err.message);
    st = hes_analyze(sys, 1, a);
    snprintf(msg, 512, "%s", hes_system_errmsg(sys));
    if (doc)
        *doc = st == HES_OK ? hes_analysis_json(sys, a) : NULL;
    hes_system_destroy(sys);
    return st;
}

START_TEST(test_quotient_by_translation)
{
    char msg[512];
    hes_analysis a;
    hes_stability full;
    hes_model m = hopper(1, along_x, sym_x);
    char *doc;
    ck_assert_msg(analyze(&m, &a, msg, &doc) == HES_OK, "%s", msg);
    /* the document names the symmetry and gives its multiplier */
    ck_assert_ptr_nonnull(doc);
    const char *sym = strstr(doc, "\"symmetries\"");
    ck_assert_msg(sym && strstr(sym, "\"names\"") && strstr(sym, "\"x\"") &&
                      strstr(sym, "\"residual\""),
                  "%s", doc);
    free(doc);
    hes_monodromy whole = a.mono;   /* the same map, its symmetry not declared */
    whole.n_symmetric = 0;
    whole.symmetric = NULL;
    ck_assert_int_eq(hes_stability_compute(&whole, &full), HES_OK);
    /* the quotient's multipliers are c and k; the symmetric one is 1 */
    ck_assert_int_eq(a.stab.n_symmetric, 1);
    ck_assert_int_eq(a.stab.n_mult, 2);
    ck_assert_msg(fabs(a.stab.re[0] - 0.5) < 1e-8 && fabs(a.stab.re[1] - 0.3) < 1e-8 &&
                      a.stab.im[0] == 0 && a.stab.im[1] == 0,
                  "quotient multipliers %.12g, %.12g", a.stab.re[0], a.stab.re[1]);
    int n = a.stab.n;
    ck_assert_msg(fabs(a.stab.all_re[n - 1] - 1) < 1e-8 && a.stab.all_im[n - 1] == 0,
                  "symmetric multiplier %.12g", a.stab.all_re[n - 1]);
    ck_assert(a.stab.symmetry_residual < 1e-8);
    ck_assert_msg(fabs(a.stab.psi - 0.5) < 1e-8 && a.stab.verdict == HES_STABLE,
                  "psi %.12g", a.stab.psi);
    /* without the symmetry the same map has psi 1: marginal */
    ck_assert_int_eq(full.n_symmetric, 0);
    ck_assert_int_eq(full.n_mult, 3);
    ck_assert_msg(fabs(full.psi - 1) < 1e-8 && full.verdict == HES_MARGINAL,
                  "full psi %.12g", full.psi);
    /* the quotient's left eigenvectors are the full map's: w^T M = lambda w^T */
    const double *M = a.mono.proj;
    for (int k = 0; k < a.stab.n_mult; k++) {
        const double *w = a.stab.vl + (size_t)a.stab.order[k] * n;
        double worst = 0;
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++)
                s += w[i] * M[i + (size_t)j * n];
            worst = fmax(worst, fabs(s - a.stab.re[k] * w[j]));
        }
        ck_assert_msg(worst < 1e-10, "left eigenvector %d: %g", k, worst);
    }
    /* the monodromy is the model's whatever its symmetries: checked by differences */
    ck_assert(a.have_check && a.check_max_abs_diff < 1e-6);
    hes_analysis_free(&a);
    hes_stability_free(&full);
}
END_TEST

START_TEST(test_a_false_symmetry_is_refused)
{
    char msg[512];
    hes_analysis a;
    hes_model m = hopper(2, along_x_and_v, sym_x_v);
    ck_assert_int_eq(analyze(&m, &a, msg, NULL), HES_EDEFECTIVE);
    ck_assert_msg(strstr(msg, "symmetries (x, v)") && strstr(msg, "invariant"), "%s", msg);
    /* two generators along one direction: dependent, said so */
    hes_model twice = hopper(2, along_x_twice, sym_x_v);
    ck_assert_int_ne(analyze(&twice, &a, msg, NULL), HES_OK);
    ck_assert_msg(strstr(msg, "dependent"), "%s", msg);
}
END_TEST

/* Solved in the quotient (free_quotient): every direction of x0 but x is
 * an unknown, and the orbit is the closed form's (x stays at the guess's
 * 0, the least-squares step having no component along the symmetry);
 * without the symmetry no hop repeats (x moves u T whatever the start)
 * and the search fails; the spec's lists must then be empty. */
START_TEST(test_orbit_solved_in_the_quotient)
{
    char msg[512];
    hes_analysis a;
    hes_model m = hopper(1, along_x, sym_x);
    m.orbit.n_free_states = m.orbit.n_residual = 0;
    m.orbit.free_quotient = 1;
    ck_assert_msg(analyze(&m, &a, msg, NULL) == HES_OK, "%s", msg);
    const double want[] = { 0, 0, 1.0, 2.0 };
    for (int i = 0; i < 4; i++)
        ck_assert_msg(fabs(a.orbit.x0[i] - want[i]) < 1e-9, "x0[%d] = %.12g", i, a.orbit.x0[i]);
    ck_assert_msg(fabs(a.stab.psi - 0.5) < 1e-8 && a.stab.verdict == HES_STABLE,
                  "psi %.12g", a.stab.psi);
    ck_assert(a.have_check && a.check_max_abs_diff < 1e-6);
    hes_analysis_free(&a);
    hes_model plain = hopper(0, NULL, NULL);
    plain.orbit.n_free_states = plain.orbit.n_residual = 0;
    plain.orbit.free_quotient = 1;
    ck_assert_int_eq(analyze(&plain, &a, msg, NULL), HES_ENOORBIT);
    ck_assert_msg(strstr(msg, "residual"), "%s", msg);
    hes_model both = hopper(1, along_x, sym_x);
    both.orbit.free_quotient = 1;
    hes_error err;
    ck_assert_int_eq(hes_model_validate(&both, &err), HES_EINVAL);
    ck_assert_msg(strstr(err.message, "free_quotient"), "%s", err.message);
}
END_TEST

/* The hop moved along x by theta (its finite action, hes_orbit_spec.
 * symmetry_act) */
static int shift_x(const double *x, const double *theta, const double *p, double *out, void *d)
{
    (void)p, (void)d;
    memcpy(out, x, 4 * sizeof(double));
    out[0] += theta[0];
    return 0;
}

/* Perturbation trials judged in the quotient by x: a perturbed hop drifts
 * along x for good, yet comes back to the gait.  From a start (x, y, vx,
 * vy) the j-th landing leaves y = 0, vx_j - u = c^j (vx - u) and vy_j - w
 * = k^(j-1) (vy_1 - w), vy_1 = w + k (s - w) with s = sqrt(vy^2 + 2 g y)
 * the speed at the first landing; the error after period j is |(vx_j - u,
 * vy_j - w)| whatever x became, in closed form.  With the generators alone
 * (first order, exact for a translation) and with the action (the nearest
 * moved copy); without the symmetry the drift along x keeps every trial
 * away. */
START_TEST(test_trials_in_the_quotient)
{
    const double u = 1.0, w = 2.0, c = 0.5, k = 0.3, g = 9.81;
    for (int variant = 0; variant < 3; variant++) {
        /* the orbit from the model with its symmetry (without it there is
           none: x moves), the trials on the variant's */
        hes_model m = hopper(1, along_x, sym_x),
                  v = variant == 2 ? hopper(0, NULL, NULL) : hopper(1, along_x, sym_x);
        if (variant == 1)
            v.orbit.symmetry_act = shift_x;
        hes_system *sys = NULL, *vs = NULL;
        hes_error err;
        ck_assert_int_eq(hes_system_new(&m, &sys, &err), HES_OK);
        ck_assert_int_eq(hes_system_new(&v, &vs, &err), HES_OK);
        hes_analysis a;
        ck_assert_msg(hes_analyze(sys, 0, &a) == HES_OK, "%s", hes_system_errmsg(sys));
        hes_trials t;
        ck_assert_msg(hes_trials_run(vs, &a.orbit, 6, 0.1, 8, 7, 1e-4, &t) == HES_OK, "%s",
                      hes_system_errmsg(vs));
        double worst = 0, least = INFINITY;
        int want_converged = 0;
        for (int i = 0; i < t.n_trials; i++) {
            const hes_trial *tr = &t.trials[i];
            ck_assert_int_eq(tr->steps_completed, 8);
            const double *x0 = tr->x0;
            double ex = x0[2] - u, ey = w + k * (sqrt(x0[3] * x0[3] + 2 * g * x0[1]) - w) - w;
            for (int j = 0; j < 8; j++) {
                ex *= c;
                if (j > 0)
                    ey *= k;
                double want = hypot(ex, ey);
                worst = fmax(worst, fabs(tr->error[j] - want));
                least = fmin(least, tr->error[j]);
                want_converged += j == 7 && want < 1e-4;
            }
        }
        if (variant < 2) {
            ck_assert_msg(worst < 1e-8, "variant %d: errors against the closed form: %g",
                          variant, worst);
            ck_assert_int_eq(t.converged, want_converged);
            ck_assert(want_converged > 0 && want_converged < 6);
        } else {   /* x itself: every hop drifts along x */
            ck_assert_msg(least > 1e-3, "without the symmetry: error %g", least);
            ck_assert_int_eq(t.converged, 0);
        }
        hes_trials_free(&t);
        hes_analysis_free(&a);
        hes_system_destroy(sys);
        hes_system_destroy(vs);
    }
}
END_TEST

/* the model's validation: n_symmetries from 0 to below the state's
 * dimension, with its callback, and names that are names */
START_TEST(test_symmetry_counts_and_names_are_validated)
{
    static const char *const bad_name[] = { "x,y" }, *const null_name[] = { NULL };
    const struct {
        int n;
        hes_frame_fn fn;
        const char *const *names;
        const char *why;
    } cases[] = {
        { -1, along_x, sym_x, "orbit.n_symmetries = -1" },
        { 1, NULL, sym_x, "orbit.n_symmetries = 1 but its array is NULL" },
        { 4, along_x, NULL, "orbit.n_symmetries = 4" },
        { 1, along_x, bad_name, "orbit.symmetry_names[0]" },
        { 1, along_x, null_name, "orbit.symmetry_names[0] is NULL" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hes_model m = hopper(cases[i].n, cases[i].fn, cases[i].names);
        hes_error err;
        ck_assert_int_eq(hes_model_validate(&m, &err), HES_EINVAL);
        ck_assert_msg(strstr(err.message, cases[i].why), "case %zu: %s", i, err.message);
    }
    hes_model ok = hopper(1, along_x, NULL);   /* names are optional */
    hes_error err;
    ck_assert_msg(hes_model_validate(&ok, &err) == HES_OK, "%s", err.message);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("symmetry");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_quotient_by_translation);
    tcase_add_test(tc, test_trials_in_the_quotient);
    tcase_add_test(tc, test_a_false_symmetry_is_refused);
    tcase_add_test(tc, test_orbit_solved_in_the_quotient);
    tcase_add_test(tc, test_symmetry_counts_and_names_are_validated);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
