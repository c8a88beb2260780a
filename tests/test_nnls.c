/*
 * test_nnls.c - least squares over nonnegative variables (lib/base/
 * nnls.c) against enumeration: on small random problems the optimum is
 * the best of the candidates "least squares (with the equalities) on a
 * support S, nonnegative", over every S, each solved here by its own
 * normal equations (KKT system) and elimination (test_solve).  Checked:
 *   - hes__nnls: the objective equals the enumeration's to 1e-10, on
 *     tall, square and wide A, cold and warm-started from a wrong set;
 *   - hes__nnls_eq: the objective equals the enumeration's and C x = e
 *     holds to 1e-12, with one to three equalities;
 *   - an infeasible equality (C x = e with C >= 0, e < 0) is refused;
 *   - duplicate and zero columns do not stop it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "testutil.h"

static unsigned long long seed = 12345;
static double unif(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

static double objective(int p, int n, const double *A, const double *b, const double *x)
{
    double s = 0;
    for (int i = 0; i < p; i++) {
        double r = -b[i];
        for (int j = 0; j < n; j++)
            r += A[i + (size_t)p * j] * x[j];
        s += r * r;
    }
    return 0.5 * s;
}

/* The enumeration: over every support S, the KKT system
 * [A_S^T A_S, C_S^T; C_S, 0] [x; pi] = [A_S^T b; e]; the smallest
 * objective among the nonnegative solutions (INFINITY if none) */
static double enumerate(int p, int k, int n, const double *A, const double *b, const double *C,
                        const double *e)
{
    double best = INFINITY;
    for (unsigned S = 0; S < (1u << n); S++) {
        int idx[16], m = 0;
        for (int j = 0; j < n; j++)
            if (S >> j & 1)
                idx[m++] = j;
        int N = m + k;
        if (N == 0)
            continue;
        double K[24 * 24] = { 0 }, y[24] = { 0 };
        for (int a = 0; a < m; a++) {
            for (int c = 0; c < m; c++) {
                double s = 0;
                for (int i = 0; i < p; i++)
                    s += A[i + (size_t)p * idx[a]] * A[i + (size_t)p * idx[c]];
                K[a + N * c] = s;
            }
            for (int i = 0; i < p; i++)
                y[a] += A[i + (size_t)p * idx[a]] * b[i];
            for (int r = 0; r < k; r++)
                K[a + N * (m + r)] = K[m + r + N * a] = C[r + (size_t)k * idx[a]];
        }
        for (int r = 0; r < k; r++)
            y[m + r] = e[r];
        if (!test_solve(N, K, y))
            continue;
        double x[16] = { 0 };
        int ok = 1;
        for (int a = 0; a < m; a++)
            ok &= (x[idx[a]] = y[a]) >= -1e-12;
        for (int r = 0; ok && r < k; r++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += C[r + (size_t)k * j] * x[j];
            ok = fabs(s - e[r]) <= 1e-9 * (1 + fabs(e[r]));
        }
        if (ok)
            best = fmin(best, objective(p, n, A, b, x));
    }
    return best;
}

START_TEST(test_nnls_against_enumeration)
{
    hes__nnls_ws *ws = hes__nnls_alloc(16, 16);
    ck_assert_ptr_nonnull(ws);
    const int shapes[3][2] = { { 8, 5 }, { 6, 6 }, { 4, 9 } };
    int cases = 0;
    for (int sh = 0; sh < 3; sh++)
        for (int rep = 0; rep < 40; rep++) {
            int p = shapes[sh][0], n = shapes[sh][1];
            double A[16 * 16], b[16], x[16];
            int pas[16];
            for (int i = 0; i < p * n; i++)
                A[i] = unif();
            for (int i = 0; i < p; i++)
                b[i] = 2 * unif();
            double ref = enumerate(p, 0, n, A, b, NULL, NULL);
            for (int warm = 0; warm < 2; warm++) {
                for (int j = 0; j < n; j++)
                    pas[j] = warm && (j % 2 == 0);    /* a wrong start */
                ck_assert_int_ge(hes__nnls(ws, p, n, A, p, b, x, pas, warm), 0);
                for (int j = 0; j < n; j++)
                    ck_assert_double_ge(x[j], 0);
                double f = objective(p, n, A, b, x);
                ck_assert_msg(fabs(f - ref) <= 1e-10 * (1 + ref), "shape %dx%d: %.15g, the "
                              "enumeration %.15g", p, n, f, ref);
            }
            cases++;
        }
    ck_assert_int_eq(cases, 120);
    hes__nnls_free(ws);
}
END_TEST

START_TEST(test_nnls_eq_against_enumeration)
{
    hes__nnls_ws *ws = hes__nnls_alloc(16, 16);
    int solved = 0;
    for (int rep = 0; rep < 90; rep++) {
        int k = 1 + rep % 3, p = 5, n = 8;
        double A[5 * 8], b[5], C[3 * 8], e[3], x[16], x0[8];
        int pas[16] = { 0 };
        for (int i = 0; i < p * n; i++)
            A[i] = unif();
        for (int i = 0; i < p; i++)
            b[i] = 2 * unif();
        /* e = C x0 with x0 >= 0: feasible */
        for (int j = 0; j < n; j++)
            x0[j] = unif() > 0 ? 1 + unif() : 0;
        for (int i = 0; i < k * n; i++)
            C[i] = unif();
        for (int r = 0; r < k; r++) {
            e[r] = 0;
            for (int j = 0; j < n; j++)
                e[r] += C[r + k * j] * x0[j];
        }
        double ref = enumerate(p, k, n, A, b, C, e);
        ck_assert(isfinite(ref));
        ck_assert_int_eq(hes__nnls_eq(ws, p, k, n, A, p, b, C, k, e, x, pas, 0, NULL), 0);
        for (int j = 0; j < n; j++)
            ck_assert_double_ge(x[j], 0);
        for (int r = 0; r < k; r++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += C[r + k * j] * x[j];
            ck_assert_msg(fabs(s - e[r]) <= 1e-12 * (1 + fabs(e[r])), "equality %d: %.15g, "
                          "not %.15g", r, s, e[r]);
        }
        double f = objective(p, n, A, b, x);
        ck_assert_msg(fabs(f - ref) <= 1e-10 * (1 + ref), "case %d (k %d): %.15g, the "
                      "enumeration %.15g", rep, k, f, ref);
        solved++;
    }
    ck_assert_int_eq(solved, 90);
    hes__nnls_free(ws);
}
END_TEST

START_TEST(test_nnls_eq_infeasible_and_degenerate)
{
    hes__nnls_ws *ws = hes__nnls_alloc(8, 8);
    double A[2 * 4] = { 1, 0, 0, 1, 1, 1, 0, 0 }, b[2] = { 1, 1 };
    double C[4] = { 1, 1, 1, 1 }, e[1] = { -1 }, x[8];
    int pas[8] = { 0 };
    /* x >= 0 and sum x = -1: no solution */
    ck_assert_int_eq(hes__nnls_eq(ws, 2, 1, 4, A, 2, b, C, 1, e, x, pas, 0, NULL), -1);
    /* duplicate columns (0 and 2 after the edit) and a zero column (3) */
    double D[2 * 4] = { 1, 2, 0, 1, 1, 2, 0, 0 }, c2[2] = { 2, 3 };
    ck_assert_int_ge(hes__nnls(ws, 2, 4, D, 2, c2, x, pas, 0), 0);
    double ref = enumerate(2, 0, 4, D, c2, NULL, NULL);
    ck_assert_double_le(fabs(objective(2, 4, D, c2, x) - ref), 1e-12);
    hes__nnls_free(ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nnls");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_nnls_against_enumeration);
    tcase_add_test(tc, test_nnls_eq_against_enumeration);
    tcase_add_test(tc, test_nnls_eq_infeasible_and_degenerate);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
