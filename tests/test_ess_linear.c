/*
 * test_ess_linear.c - the ESS integrator's path whose cost is linear in the
 * number of contacts (lib/ess/ess_active.c; the optional per-guard,
 * broad-phase and sums callbacks of hes_ess_model) against the whole
 * callbacks it stands in for:
 *   - the plates' h_some and Dh_some equal h and Dh entry by entry;
 *   - their field from the sums equals the sum over the stance legs (f,
 *     f_dx) for random sign patterns, and the sums kept through random
 *     flips equal the sums made afresh;
 *   - their broad phases return every guard that a dense sample of a
 *     random box of states brings into the level interval, and few more
 *     for a small box;
 *   - runs on the active path end where the same runs on the whole
 *     callbacks end;
 *   - a broad phase that leaves guards out makes the run fail, never end
 *     with status OK on a wrong trajectory;
 *   - plate-vertical's energy and power (the bookkeeping's callbacks): P is
 *     the derivative of E along the field (central differences), from the
 *     sums as from the sign pattern; a field with a force its power does
 *     not account for fails the run;
 *   - on the hopper (conservative: P = 0) the bookkeeping holds at eps
 *     1e-2 to 1e-4, and an energy that counts the spring twice fails;
 *   - DOPRI5 steps past a candidate a projection left at its band's edge
 *     to rounding (a bed of staggered springs).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

#define ck_assert_says(text, word)                                                  \
    ck_assert_msg(strstr((text), (word)) != NULL, "message '%s' lacks '%s'", (text), (word))

static double urand(unsigned long long *st)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return (double)(*st >> 11) / 9007199254740992.0;
}

static hes_ess_model *open_plate(int vertical, int N)
{
    hes_ess_model *md = vertical ? hes_plate_vertical_model(N) : hes_plate_springs_model(N);
    ck_assert_ptr_nonnull(md);
    return md;
}

static void close_plate(int vertical, hes_ess_model *md)
{
    if (vertical)
        hes_ess_model_destroy(md);
    else
        hes_ess_model_destroy(md);
}

static const double *defaults(const hes_ess_model *md, double *p)
{
    for (int k = 0; k < md->n_params; k++)
        p[k] = md->params[k].value;
    return p;
}

/* a random state: the plate near the legs, tilted, moving */
static void random_state(unsigned long long *st, double *x)
{
    x[0] = 0.4 * (urand(st) - 0.5);
    x[1] = 0.02 * (urand(st) - 0.5) + (urand(st) < 0.5 ? 0.5 : 0.0);
    x[2] = 0.4 * (urand(st) - 0.5);
    for (int k = 3; k < 6; k++)
        x[k] = 2 * (urand(st) - 0.5);
}

START_TEST(test_plate_guards_some_equal_the_whole)
{
    unsigned long long st = 0x9e3779b97f4a7c15ULL;
    int Ns[] = { 1, 2, 7, 200 };
    for (int v = 0; v <= 1; v++)
        for (size_t a = 0; a < sizeof Ns / sizeof *Ns; a++) {
            hes_ess_model *md = open_plate(v, Ns[a]);
            int m = md->m, n = md->n;
            double p[16], x[6], *h = malloc(sizeof(double) * m), *D = malloc(sizeof(double) * m * n);
            double *hs = malloc(sizeof(double) * m), *Ds = malloc(sizeof(double) * m * n);
            int *idx = malloc(sizeof(int) * m);
            ck_assert_ptr_nonnull(md->h_some);
            defaults(md, p);
            for (int trial = 0; trial < 20; trial++) {
                random_state(&st, x);
                int k = 0;
                for (int i = 0; i < m; i++)
                    if (urand(&st) < 0.3)
                        idx[k++] = m - 1 - i;   /* any order */
                ck_assert_int_eq(md->h(x, p, h, md->data), 0);
                ck_assert_int_eq(md->Dh(x, p, D, md->data), 0);
                ck_assert_int_eq(md->h_some(x, k, idx, p, hs, md->data), 0);
                ck_assert_int_eq(md->Dh_some(x, k, idx, p, Ds, md->data), 0);
                for (int q = 0; q < k; q++) {
                    ck_assert_double_eq(hs[q], h[idx[q]]);
                    for (int c = 0; c < n; c++)
                        ck_assert_double_eq(Ds[q + (size_t)c * k], D[idx[q] + (size_t)c * m]);
                }
            }
            free(h); free(D); free(hs); free(Ds); free(idx);
            close_plate(v, md);
        }
}
END_TEST

static double max_rel(const double *a, const double *b, int n)
{
    double d = 0, s = 1e-300;
    for (int k = 0; k < n; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
        s = fmax(s, fmax(fabs(a[k]), fabs(b[k])));
    }
    return d / s;
}

START_TEST(test_plate_field_from_the_sums_equals_the_sum_over_legs)
{
    unsigned long long st = 0x2545f4914f6cdd1dULL;
    int Ns[] = { 1, 2, 7, 200 };
    for (int v = 0; v <= 1; v++)
        for (size_t a = 0; a < sizeof Ns / sizeof *Ns; a++) {
            hes_ess_model *md = open_plate(v, Ns[a]);
            int m = md->m, n = md->n, ns = md->n_sums;
            ck_assert_int_gt(ns, 0);
            double p[16], x[6], f[6], fs[6], J[36], Js[36], sums[16], fresh[16];
            int *s = malloc(sizeof(int) * m);
            defaults(md, p);
            for (int i = 0; i < m; i++)
                s[i] = urand(&st) < 0.5 ? 1 : -1;
            ck_assert_int_eq(md->sums_init(s, p, sums, md->data), 0);
            for (int flip = 0; flip < 400; flip++) {
                int i = (int)(urand(&st) * m);
                s[i] = -s[i];
                ck_assert_int_eq(md->sums_flip(i, s, p, sums, md->data), 0);
                if (flip % 40 != 39)
                    continue;
                ck_assert_int_eq(md->sums_init(s, p, fresh, md->data), 0);
                for (int k = 0; k < ns; k++)   /* integers: exact */
                    ck_assert_double_eq(sums[k], fresh[k]);
                random_state(&st, x);
                ck_assert_int_eq(md->f(x, s, p, f, md->data), 0);
                ck_assert_int_eq(md->f_sums(x, sums, p, fs, md->data), 0);
                ck_assert_int_eq(md->f_dx(x, s, p, J, md->data), 0);
                ck_assert_int_eq(md->f_dx_sums(x, sums, p, Js, md->data), 0);
                ck_assert_msg(max_rel(f, fs, n) < 1e-12, "%s N = %d: f from the sums off by %.3g",
                              md->name, Ns[a], max_rel(f, fs, n));
                ck_assert_msg(max_rel(J, Js, n * n) < 1e-11, "%s N = %d: f_dx from the sums off "
                              "by %.3g", md->name, Ns[a], max_rel(J, Js, n * n));
            }
            free(s);
            close_plate(v, md);
        }
}
END_TEST

/* The broad phase of plate `vertical` with N legs on 300 random boxes
 * against a grid over each box (G points a side over the positions, and
 * for plate-springs, whose liftoff guard depends on the velocities, over
 * all six components): every guard the grid brings into the levels
 * [-eps, 0] is returned, each once, and on boxes of at most a millimetre
 * not many more than the grid finds. */
static void broad_phase_check(int vertical, int N, unsigned long long st)
{
    hes_ess_model *md = open_plate(vertical, N);
    int m = md->m, *idx = malloc(sizeof(int) * m), *in = malloc(sizeof(int) * m);
    int *seen = malloc(sizeof(int) * m), dims = vertical ? 3 : 6, G = vertical ? 9 : 4;
    double p[16], *h = malloc(sizeof(double) * m);
    defaults(md, p);
    double z0 = vertical ? 0 : p[5];   /* plate-springs: tops of the rollers at l0 */
    long met = 0, small_returned = 0, small_boxes = 0, small_met = 0;
    for (int trial = 0; trial < 300; trial++) {
        double c[6], lo[6], hi[6], x[6], w[6];
        random_state(&st, c);
        c[1] = z0 + 0.03 * (urand(&st) - 0.5);
        double scale = pow(10, -4 + 3 * urand(&st));
        for (int k = 0; k < 6; k++) {
            w[k] = k >= dims ? 0 : scale * (k == 0 ? 3 : k < 3 ? 1 : 30) * urand(&st);
            lo[k] = c[k] - w[k];
            hi[k] = c[k] + w[k];
        }
        if (trial % 10 == 9) {   /* a level plate: lines of almost no slope */
            lo[2] = -1e-300 * (trial % 20 == 9);
            hi[2] = 0;
            c[2] = 0;
        }
        double eps = pow(10, -4 + 2 * urand(&st)), L = -eps, U = 0;
        int k = md->h_near(lo, hi, L, U, idx, p, md->data);
        ck_assert_int_ge(k, 0);
        ck_assert_int_le(k, m);
        memset(in, 0, sizeof(int) * m);
        for (int q = 0; q < k; q++) {
            ck_assert_int_ge(idx[q], 0);
            ck_assert_int_lt(idx[q], m);
            ck_assert_msg(!in[idx[q]], "guard %d returned twice", idx[q]);
            in[idx[q]] = 1;
        }
        int small = scale <= 1e-3 && eps <= 1e-3 && trial % 10 != 9;   /* (not level) */
        if (small) {
            small_returned += k;
            small_boxes++;
        }
        memset(seen, 0, sizeof(int) * m);
        long npts = 1;
        for (int a = 0; a < dims; a++)
            npts *= G;
        for (long g = 0; g < npts; g++) {
            long r = g;
            memcpy(x, c, sizeof x);
            for (int a = 0; a < dims; a++, r /= G)
                x[a] = lo[a] + (hi[a] - lo[a]) * (double)(r % G) / (G - 1);
            ck_assert_int_eq(md->h(x, p, h, md->data), 0);
            for (int i = 0; i < m; i++)
                if (h[i] >= L && h[i] <= U) {
                    met++;
                    small_met += small && !seen[i];
                    seen[i] = 1;
                    ck_assert_msg(in[i], "%s trial %d: guard %d reaches h = %.6g in [%g, 0] "
                                  "at a state of the box but h_near left it out", md->name,
                                  trial, i, h[i], L);
                }
        }
    }
    ck_assert_msg(small_returned <= 2 * small_met + 8 * small_boxes, "%s: h_near returned %ld "
                  "guards in %ld boxes of at most 1 mm where the grid met %ld", md->name,
                  small_returned, small_boxes, small_met);
    ck_assert_int_gt(small_boxes, 10);
    ck_assert_int_gt(met, 0);
    free(idx); free(in); free(h); free(seen);
    close_plate(vertical, md);
}

START_TEST(test_plate_broad_phase_returns_every_guard_that_meets_the_levels)
{
    broad_phase_check(1, 60, 0x853c49e6748fea9bULL);
    broad_phase_check(0, 40, 0xda3e39cb94b95bdbULL);
}
END_TEST

/* The plate with its optional callbacks taken away: the integrator's
 * generic path. */
static hes_ess_model whole(const hes_ess_model *md)
{
    hes_ess_model w = *md;
    w.h_some = w.Dh_some = NULL;
    w.h_near = NULL;
    w.n_sums = 0;
    w.sums_init = NULL;
    w.sums_flip = NULL;
    w.f_sums = w.f_dx_sums = NULL;
    w.energy_sums = NULL;   /* (energy itself stays: the bookkeeping on both paths) */
    return w;
}

START_TEST(test_active_path_ends_where_the_whole_path_ends)
{
    int N = 50, v = _i;   /* plate-springs, plate-vertical */
    hes_ess_model *md = open_plate(v, N);
    hes_ess_model w = whole(md);
    hes_ess *fast, *slow;
    ck_assert_int_eq(hes_ess_new(md, &fast, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_new(&w, &slow, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.method = HES_ESS_DOPRI5;
    o.eps = 1e-3;
    unsigned long long st = 0x5851f42d4c957f2dULL;
    for (int run = 0; run < 6; run++) {
        double x0[6] = { 0, (v ? 0.2 : 0.75) + 0.3 * urand(&st), 0.4 * (urand(&st) - 0.5), 0, 0,
                         0 };
        hes_ess_result a, b;
        o.jacobian = run % 3 == 2;
        ck_assert_msg(hes_ess_run(fast, &o, 0, x0, 2.0, &a) == HES_OK, "%s",
                      hes_ess_errmsg(fast));
        ck_assert_msg(hes_ess_run(slow, &o, 0, x0, 2.0, &b) == HES_OK, "%s",
                      hes_ess_errmsg(slow));
        double d = max_rel(a.x_end, b.x_end, 6);
        ck_assert_msg(d < 1e-6, "run %d: the active path ends %.3g (relative) from the whole "
                      "path", run, d);
        ck_assert_int_eq(a.n_projections, b.n_projections);
        ck_assert_int_eq(a.n_sign_changes, b.n_sign_changes);
        for (int i = 0; i < md->m; i++)
            ck_assert_int_eq(a.s_end[i], b.s_end[i]);
        if (o.jacobian)
            ck_assert_msg(max_rel(a.jac, b.jac, 36) < 1e-6, "run %d: Jacobians differ by %.3g",
                          run, max_rel(a.jac, b.jac, 36));
        hes_ess_result_free(&a);
        hes_ess_result_free(&b);
    }
    hes_ess_destroy(fast);
    hes_ess_destroy(slow);
    close_plate(v, md);
}
END_TEST

static int blind_near(const double *lo, const double *hi, double a, double b, int *idx,
                      const double *p, void *data)
{
    (void)lo; (void)hi; (void)a; (void)b; (void)idx; (void)p; (void)data;
    return 0;   /* sees nothing coming */
}

START_TEST(test_a_blind_broad_phase_fails_the_run)
{
    hes_ess_model *md = open_plate(1, 20);
    hes_ess_model w = *md;
    w.h_near = blind_near;
    hes_ess *e;
    ck_assert_int_eq(hes_ess_new(&w, &e, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.method = HES_ESS_DOPRI5;
    double x0[6] = { 0, 0.3, 0.05, 0, 0, 0 };
    hes_ess_result r;
    hes_status st = hes_ess_run(e, &o, 0, x0, 1.0, &r);
    ck_assert_int_eq(st, HES_ESOLVER);
    ck_assert_says(hes_ess_errmsg(e), "guard");
    hes_ess_result_free(&r);
    hes_ess_destroy(e);
    close_plate(1, md);
}
END_TEST

START_TEST(test_plate_power_is_the_derivative_of_the_energy)
{
    unsigned long long st = 0x6a09e667f3bcc909ULL;
    int Ns[] = { 1, 2, 7, 200 };
    for (size_t a = 0; a < sizeof Ns / sizeof *Ns; a++) {
        hes_ess_model *md = open_plate(1, Ns[a]);
        int m = md->m, *s = malloc(sizeof(int) * m);
        double p[16], x[6], f[6], xp[6], xm[6], e[2], es[2], ep[2], em[2], sums[16];
        defaults(md, p);
        for (int trial = 0; trial < 40; trial++) {
            random_state(&st, x);
            for (int i = 0; i < m; i++)
                s[i] = urand(&st) < 0.5 ? 1 : -1;
            ck_assert_int_eq(md->sums_init(s, p, sums, md->data), 0);
            ck_assert_int_eq(md->f(x, s, p, f, md->data), 0);
            ck_assert_int_eq(md->energy(x, s, p, e, md->data), 0);
            ck_assert_int_eq(md->energy_sums(x, sums, p, es, md->data), 0);
            ck_assert_msg(max_rel(e, es, 2) < 1e-12, "N = %d: the energy from the sums off by "
                          "%.3g", Ns[a], max_rel(e, es, 2));
            double d = 1e-5;
            for (int k = 0; k < 6; k++) {
                xp[k] = x[k] + d * f[k];
                xm[k] = x[k] - d * f[k];
            }
            ck_assert_int_eq(md->energy(xp, s, p, ep, md->data), 0);
            ck_assert_int_eq(md->energy(xm, s, p, em, md->data), 0);
            double fd = (ep[0] - em[0]) / (2 * d);
            ck_assert_msg(fabs(fd - e[1]) <= 1e-6 * (1 + fabs(fd)), "N = %d: P = %.12g but dE/dt "
                          "along f = %.12g", Ns[a], e[1], fd);
        }
        free(s);
        close_plate(1, md);
    }
}
END_TEST

/* plate-vertical with an upward push of 1 N the model's power leaves out */
static const hes_ess_model *pushed_inner;

static int pushed_f(const double *x, const int *s, const double *p, double *out, void *d)
{
    int rc = pushed_inner->f(x, s, p, out, d);
    out[4] += 1.0 / p[1];
    return rc;
}

static int pushed_f_sums(const double *x, const double *sums, const double *p, double *out,
                         void *d)
{
    int rc = pushed_inner->f_sums(x, sums, p, out, d);
    out[4] += 1.0 / p[1];
    return rc;
}

START_TEST(test_energy_bookkeeping_catches_an_unaccounted_force)
{
    hes_ess_model *md = open_plate(1, 20);
    hes_ess_model w = *md;
    pushed_inner = md;
    w.f = pushed_f;
    w.f_sums = pushed_f_sums;
    w.f_dx = NULL;
    w.f_dx_sums = NULL;
    hes_ess *e, *ok;
    ck_assert_int_eq(hes_ess_new(&w, &e, NULL), HES_OK);
    ck_assert_int_eq(hes_ess_new(md, &ok, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.method = HES_ESS_DOPRI5;
    double x0[6] = { 0, 0.3, 0.05, 0, 0, 0 };
    hes_ess_result r;
    ck_assert_int_eq(hes_ess_run(e, &o, 0, x0, 1.0, &r), HES_ESOLVER);
    ck_assert_says(hes_ess_errmsg(e), "energy bookkeeping");
    hes_ess_result_free(&r);
    ck_assert_msg(hes_ess_run(ok, &o, 0, x0, 1.0, &r) == HES_OK, "%s", hes_ess_errmsg(ok));
    hes_ess_result_free(&r);
    hes_ess_destroy(e);
    hes_ess_destroy(ok);
    close_plate(1, md);
}
END_TEST

/* the hopper (a second model, conservative): the bookkeeping holds on its
 * runs at every eps, and a spring energy that is not the field's fails */
static const hes_ess_model *hopper_inner;

static int stiff_energy(const double *x, const int *s, const double *p, double *out, void *d)
{
    int rc = hopper_inner->energy(x, s, p, out, d);
    if (s[0] > 0 && s[1] < 0)   /* in stance: the spring counted twice */
        out[0] += 0.5 * p[1] * (p[3] - x[0]) * (p[3] - x[0]);
    return rc;
}

START_TEST(test_energy_bookkeeping_on_the_hopper)
{
    const hes_ess_model *md = hes_ess_problem_find("hopper-1d");
    ck_assert_ptr_nonnull(md);
    ck_assert_ptr_nonnull(md->energy);
    hes_ess *e;
    ck_assert_int_eq(hes_ess_new(md, &e, NULL), HES_OK);
    hes_ess_options o;
    hes_ess_options_init(&o);
    o.method = HES_ESS_DOPRI5;
    double x0[2] = { 1.5, 0 };
    hes_ess_result r;
    for (double eps = 1e-2; eps > 1e-5; eps /= 10) {
        o.eps = eps;
        ck_assert_msg(hes_ess_run(e, &o, 0, x0, 4.0, &r) == HES_OK, "eps %g: %s", eps,
                      hes_ess_errmsg(e));
        ck_assert_int_gt(r.n_projections, 4);
        hes_ess_result_free(&r);
    }
    hes_ess_destroy(e);
    hes_ess_model w = *md;
    hopper_inner = md;
    w.energy = stiff_energy;
    ck_assert_int_eq(hes_ess_new(&w, &e, NULL), HES_OK);
    o.eps = 1e-3;
    ck_assert_int_eq(hes_ess_run(e, &o, 0, x0, 4.0, &r), HES_ESOLVER);
    ck_assert_says(hes_ess_errmsg(e), "energy bookkeeping");
    hes_ess_result_free(&r);
    hes_ess_destroy(e);
}
END_TEST

/* A body on a bed of staggered springs (a model written as a user would,
 * with the optional callbacks): tips at z_j = j dz, each pushing k (z_j -
 * y) while compressed.  A projection leaves the next tip's candidate at its
 * band's edge to the last bit (h + eps = -1e-19): DOPRI5 once capped its
 * step at twice that over the rate (1e-17 s) and stopped with "the step
 * size is too small".  Now it runs and ends where CVODES ends. */
#define BED_N 400
#define BED_DZ 2.5e-4
static int bed_stance(const int *s, int j) { return s[j] > 0 && s[BED_N + j] < 0; }

static int bed_f(const double *x, const int *s, const double *p, double *o, void *d)
{
    (void)p, (void)d;
    double a = -9.81;
    for (int j = 0; j < BED_N; j++)
        if (bed_stance(s, j))
            a += 40.0 * (j * BED_DZ - x[0]);
    o[0] = x[1];
    o[1] = a;
    return 0;
}

static int bed_h(const double *x, const double *p, double *o, void *d)
{
    (void)p, (void)d;
    for (int j = 0; j < BED_N; j++) {
        o[j] = j * BED_DZ - x[0];
        o[BED_N + j] = x[0] - j * BED_DZ;
    }
    return 0;
}

static int bed_Dh(const double *x, const double *p, double *o, void *d)
{
    (void)x, (void)p, (void)d;
    for (int i = 0; i < 2 * BED_N; i++) {
        o[i] = i < BED_N ? -1 : 1;
        o[2 * BED_N + i] = 0;
    }
    return 0;
}

START_TEST(test_dopri5_steps_past_a_candidate_at_its_band_edge)
{
    hes_ess_model md = { .name = "bed", .n = 2, .m = 2 * BED_N, .f = bed_f, .h = bed_h,
                         .Dh = bed_Dh };
    double x0[2] = { 0.3, 0 }, end[2][2];
    for (int method = 0; method < 2; method++) {
        hes_ess *e;
        ck_assert_int_eq(hes_ess_new(&md, &e, NULL), HES_OK);
        hes_ess_options o;
        hes_ess_options_init(&o);
        o.method = method ? HES_ESS_DOPRI5 : HES_ESS_CVODES;
        hes_ess_result r;
        ck_assert_msg(hes_ess_run(e, &o, 0, x0, 0.5, &r) == HES_OK, "%s: %s",
                      method ? "DOPRI5" : "CVODES", hes_ess_errmsg(e));
        memcpy(end[method], r.x_end, sizeof end[method]);
        hes_ess_result_free(&r);
        hes_ess_destroy(e);
    }
    ck_assert_msg(fabs(end[0][0] - end[1][0]) < 1e-5 && fabs(end[0][1] - end[1][1]) < 1e-5,
                  "CVODES ends at (%.9g, %.9g), DOPRI5 at (%.9g, %.9g)", end[0][0], end[0][1],
                  end[1][0], end[1][1]);
}
END_TEST

START_TEST(test_the_optional_callbacks_are_validated)
{
    hes_ess_model *md = open_plate(1, 4);
    hes_ess_model w = *md;
    hes_error msg;
    w.h_near = NULL;
    ck_assert_int_eq(hes_ess_validate(&w, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "h_near");
    w = *md;
    w.sums_flip = NULL;
    ck_assert_int_eq(hes_ess_validate(&w, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "sums_flip");
    w = *md;
    w.energy = NULL;
    ck_assert_int_eq(hes_ess_validate(&w, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "energy_sums needs energy");
    w = *md;
    w.n_sums = 0;
    w.energy_sums = NULL;
    ck_assert_int_eq(hes_ess_validate(&w, &msg), HES_EINVAL);
    ck_assert_says(msg.message, "n_sums = 0");
    ck_assert_int_eq(hes_ess_validate(md, &msg), HES_OK);
    close_plate(1, md);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ess_linear");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_plate_guards_some_equal_the_whole);
    tcase_add_test(tc, test_plate_field_from_the_sums_equals_the_sum_over_legs);
    tcase_add_test(tc, test_plate_broad_phase_returns_every_guard_that_meets_the_levels);
    tcase_add_loop_test(tc, test_active_path_ends_where_the_whole_path_ends, 0, 2);
    tcase_add_test(tc, test_a_blind_broad_phase_fails_the_run);
    tcase_add_test(tc, test_plate_power_is_the_derivative_of_the_energy);
    tcase_add_test(tc, test_energy_bookkeeping_catches_an_unaccounted_force);
    tcase_add_test(tc, test_energy_bookkeeping_on_the_hopper);
    tcase_add_test(tc, test_dopri5_steps_past_a_candidate_at_its_band_edge);
    tcase_add_test(tc, test_the_optional_callbacks_are_validated);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
