/*
 * test_lcp.c - hes_lcp_solve (lib/contact/lcp.c, Lemke's method of Siconos
 * numerics) against independent computations:
 *   - a 2 x 2 problem solved by hand;
 *   - random problems with P-matrices (positive definite, symmetric or
 *     not), whose solution is unique, against the exhaustive search over all
 *     2^n complementary index sets (a linear solve each), n = 1 to 8;
 *   - q >= 0 (the solution is z = 0) and an infeasible problem (HES_ELCP
 *     with a message), bad arguments (HES_EINVAL).
 * Without Siconos numerics every call says so (HES_ESOLVER) and the
 * numerical tests are skipped with a message.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

static int have_solver(void)
{
    return test_have_lcp("test_lcp");
}

START_TEST(test_two_by_two_by_hand)
{
    if (!have_solver())
        return;
    /* M = [2 1; 1 2], q = (-5, -6): both z positive, M z = -q: z = (4/3, 7/3) */
    const double M[4] = { 2, 1, 1, 2 }, q[2] = { -5, -6 };
    double z[2], w[2];
    hes_lcp_info info;
    hes_error msg;
    ck_assert_msg(hes_lcp_solve(2, M, q, 1e-12, z, w, &info, &msg) == HES_OK, "%s",
                  msg.message);
    ck_assert_double_eq_tol(z[0], 4.0 / 3, 1e-13);
    ck_assert_double_eq_tol(z[1], 7.0 / 3, 1e-13);
    ck_assert_double_eq_tol(w[0], 0, 1e-13);
    ck_assert_double_eq_tol(w[1], 0, 1e-13);
    ck_assert(info.residual <= 1e-12 && info.pivots >= 1);
    /* q = (-5, 6): only z_1 positive: z = (2.5, 0), w = (0, 8.5) */
    const double q2[2] = { -5, 6 };
    ck_assert_int_eq(hes_lcp_solve(2, M, q2, 1e-12, z, w, &info, &msg), HES_OK);
    ck_assert_double_eq_tol(z[0], 2.5, 1e-13);
    ck_assert_double_eq_tol(z[1], 0, 1e-13);
    ck_assert_double_eq_tol(w[1], 8.5, 1e-12);
    /* q >= 0: z = 0, w = q */
    const double q3[2] = { 1, 0 };
    ck_assert_int_eq(hes_lcp_solve(2, M, q3, 1e-12, z, w, &info, &msg), HES_OK);
    ck_assert(z[0] == 0 && z[1] == 0 && w[0] == 1 && w[1] == 0);
}
END_TEST

/* the solution by trying every index set S (z_S = -M_SS^-1 q_S, z = 0
 * elsewhere); the number of sets that are solutions in *count */
static void exhaustive(int n, const double *M, const double *q, double *z, int *count)
{
    *count = 0;
    for (unsigned S = 0; S < 1u << n; S++) {
        int idx[8], k = 0;
        for (int i = 0; i < n; i++)
            if (S & 1u << i)
                idx[k++] = i;
        double A[64], b[8], zz[8] = { 0 };
        for (int a = 0; a < k; a++) {
            b[a] = -q[idx[a]];
            for (int c = 0; c < k; c++)
                A[a + k * c] = M[idx[a] + n * idx[c]];
        }
        if (k > 0 && !test_solve(k, A, b))
            continue;
        for (int a = 0; a < k; a++)
            zz[idx[a]] = b[a];
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            double wi = q[i];
            for (int c = 0; c < n; c++)
                wi += M[i + n * c] * zz[c];
            ok = zz[i] >= -1e-12 && wi >= -1e-12;
        }
        if (ok) {
            memcpy(z, zz, (size_t)n * sizeof *z);
            ++*count;
        }
    }
}

START_TEST(test_random_p_matrices_against_exhaustive_search)
{
    if (!have_solver())
        return;
    unsigned long long seed = 12345;
    double worst = 0, worst_res = 0;
    int problems = 0;
    for (int n = 1; n <= 8; n++)
        for (int rep = 0; rep < 25; rep++) {
            /* M = B B^T + n I (+ a skew part every other time): positive
             * definite, so a P-matrix, so the LCP has exactly one solution */
            double B[64], M[64], q[8], z[8], w[8], zx[8];
            for (int i = 0; i < n * n; i++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                B[i] = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
            }
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = i == j ? n : 0;
                    for (int k = 0; k < n; k++)
                        s += B[i + n * k] * B[j + n * k];
                    if (rep % 2)
                        s += B[i + n * j] - B[j + n * i];
                    M[i + n * j] = s;
                }
            for (int i = 0; i < n; i++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                q[i] = ((double)(seed >> 11) / 9007199254740992.0 * 2 - 1) * 5;
            }
            int count;
            exhaustive(n, M, q, zx, &count);
            ck_assert_int_eq(count, 1);
            hes_lcp_info info;
            hes_error msg;
            ck_assert_msg(hes_lcp_solve(n, M, q, 1e-9, z, w, &info, &msg) == HES_OK,
                          "n %d: %s", n, msg.message);
            for (int i = 0; i < n; i++)
                worst = fmax(worst, fabs(z[i] - zx[i]) / (1 + fabs(zx[i])));
            worst_res = fmax(worst_res, info.residual);
            problems++;
        }
    if (getenv("HES_TEST_VERBOSE"))
        printf("lcp: %d problems, |z - z_exhaustive| <= %.3e, residual <= %.3e\n", problems,
               worst, worst_res);
    ck_assert_msg(worst < 1e-10, "|z - z_exhaustive| = %g", worst);
    ck_assert_msg(worst_res < 1e-12, "residual %g", worst_res);
}
END_TEST

START_TEST(test_infeasible_and_bad_problems_are_refused)
{
    hes_error msg;
    double z[2], w[2];
    const double M1 = -1, q1 = -1, M[4] = { 1, 0, 0, 1 }, q[2] = { -1, -1 };
    ck_assert_int_eq(hes_lcp_solve(0, M, q, 1e-9, z, w, NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_lcp_solve(2, NULL, q, 1e-9, z, w, NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(hes_lcp_solve(2, M, q, 0, z, w, NULL, &msg), HES_EINVAL);
    const double qn[2] = { NAN, 1 };
    ck_assert_int_eq(hes_lcp_solve(2, M, qn, 1e-9, z, w, NULL, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "not finite"), "%s", msg.message);
    if (!have_solver())
        return;
    /* w = -z - 1 >= 0 has no z >= 0 */
    ck_assert_int_eq(hes_lcp_solve(1, &M1, &q1, 1e-9, z, w, NULL, &msg), HES_ELCP);
    ck_assert_msg(strstr(msg.message, "no solution"), "%s", msg.message);
    /* M = [0 -1; 1 0] (skew, copositive-plus), q = (-1, -1): w_1 = -z_2 - 1 < 0 always */
    const double Ms[4] = { 0, 1, -1, 0 };
    ck_assert_int_eq(hes_lcp_solve(2, Ms, q, 1e-9, z, w, NULL, &msg), HES_ELCP);
    ck_assert_str_eq(hes_strerror(HES_ELCP), "complementarity problem unsolved");
    ck_assert_int_eq(hes_status_exit_code(HES_ELCP), 1);
}
END_TEST

static Suite *lcp_suite(void)
{
    Suite *s = suite_create("lcp");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_two_by_two_by_hand);
    tcase_add_test(tc, test_random_p_matrices_against_exhaustive_search);
    tcase_add_test(tc, test_infeasible_and_bad_problems_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(lcp_suite());
}
