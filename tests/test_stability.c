/*
 * test_stability.c - Check suite for hes_stability_compute (lib/hybrid/stability.c)
 * on hand-built monodromies whose eigenvalues are known in closed form:
 * multipliers and their order, psi and stability for non-autonomous
 * matrices; for autonomous ones the trivial eigenvalue of the section
 * projection found by its LEFT eigenvector along the section normal, also
 * when a nontrivial multiplier is exactly 0 or exactly 1 (where "drop the
 * eigenvalue nearest 0 / nearest 1" would go wrong); the condition number of
 * the maximising multiplier; and the failures (no left eigenvector along the
 * normal, missing or non-finite input).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

/* Column-major element (i, j) of an n x n matrix. */
#define AT(a, n, i, j) ((a)[(i) + (size_t)(j) * (n)])

static void matmul(int n, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += AT(a, n, i, k) * AT(b, n, k, j);
            AT(c, n, i, j) = s;
        }
}

/* Inverse of a 3 x 3 matrix by the adjugate (cofactor) formula. */
static void inverse3(const double *a, double *inv)
{
    double det = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            /* inv(i, j) = cofactor(j, i) / det */
            AT(inv, 3, i, j) = AT(a, 3, i1, j1) * AT(a, 3, i2, j2) - AT(a, 3, i1, j2) * AT(a, 3, i2, j1);
        }
    for (int k = 0; k < 3; k++)
        det += AT(a, 3, 0, k) * AT(inv, 3, k, 0);
    ck_assert_double_gt(fabs(det), 1e-6);
    for (int k = 0; k < 9; k++)
        inv[k] /= det;
}

/* Householder reflection H = I - 2 u u^T / (u^T u): orthogonal, H^-1 = H. */
static void householder(int n, const double *u, double *H)
{
    double uu = 0.0;
    for (int i = 0; i < n; i++)
        uu += u[i] * u[i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            AT(H, n, i, j) = (i == j) - 2.0 * u[i] * u[j] / uu;
}

/* B = H A H (a similarity, since H^-1 = H). */
static void reflect(int n, const double *u, const double *A, double *B)
{
    double H[16], T[16];
    ck_assert_int_le(n, 4);
    householder(n, u, H);
    matmul(n, H, A, T);
    matmul(n, T, H, B);
}

static hes_monodromy nonautonomous(int n, double *phi)
{
    hes_monodromy m;
    memset(&m, 0, sizeof m);
    m.n = n;
    m.phi = phi;
    m.autonomous = 0;
    return m;
}

static hes_monodromy autonomous(int n, double *phi, double *proj, double *normal)
{
    hes_monodromy m;
    memset(&m, 0, sizeof m);
    m.n = n;
    m.phi = phi;
    m.proj = proj;
    m.normal = normal;
    m.autonomous = 1;
    return m;
}

/* |cos| of the angle between column j of a dgeev eigenvector matrix (a real
 * eigenvalue's) and v. */
static double column_cosine(const double *V, int n, int j, const double *v)
{
    double d = 0.0, a = 0.0, b = 0.0;
    for (int i = 0; i < n; i++) {
        d += AT(V, n, i, j) * v[i];
        a += AT(V, n, i, j) * AT(V, n, i, j);
        b += v[i] * v[i];
    }
    return fabs(d) / sqrt(a * b);
}

/* ---------------------------------------------------- non-autonomous case */

START_TEST(test_diagonal_monodromy_psi_is_largest_modulus)
{
    double phi[4] = { 0.5, 0.0, 0.0, -2.0 }; /* diag(0.5, -2) */
    hes_monodromy m = nonautonomous(2, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_int_eq(st.n, 2);
    ck_assert_int_eq(st.n_mult, 2);
    ck_assert_int_eq(st.trivial, -1);
    ck_assert_double_eq_tol(st.psi, 2.0, 1e-14);
    ck_assert_int_eq(st.stable, 0);
    ck_assert_double_eq_tol(st.re[0], -2.0, 1e-14);
    ck_assert_double_eq_tol(st.re[1], 0.5, 1e-14);
    ck_assert_double_eq(st.im[0], 0.0);
    ck_assert_double_eq(st.im[1], 0.0);
    /* order maps the sorted multipliers back to dgeev's eigenvalues */
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq(st.re[k], st.all_re[st.order[k]]);
        ck_assert_double_eq(st.im[k], st.all_im[st.order[k]]);
    }
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_scaled_rotation_gives_stable_complex_pair)
{
    const double a = 0.7, r = 0.9;
    double phi[4] = { r * cos(a), r * sin(a), -r * sin(a), r * cos(a) };
    hes_monodromy m = nonautonomous(2, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_int_eq(st.n_mult, 2);
    ck_assert_double_eq_tol(st.psi, r, 1e-14);
    ck_assert_int_eq(st.stable, 1);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq_tol(st.re[k], r * cos(a), 1e-14);
        ck_assert_double_eq_tol(fabs(st.im[k]), r * sin(a), 1e-14);
        ck_assert_double_eq_tol(hypot(st.re[k], st.im[k]), r, 1e-14);
    }
    ck_assert_double_eq_tol(st.im[0], -st.im[1], 1e-14); /* conjugates */
    ck_assert_double_eq_tol(st.cond, 1.0, 1e-10);        /* a normal matrix */
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_multipliers_are_sorted_by_modulus_descending)
{
    /* block diag(0.5, -2, 1.1 R(0.4)) seen in another orthonormal basis:
     * moduli 2, 1.1, 1.1, 0.5 */
    const double c = 1.1 * cos(0.4), s = 1.1 * sin(0.4);
    double B[16] = { 0 }, phi[16];
    const double u[4] = { 1.0, -2.0, 0.5, 3.0 };
    AT(B, 4, 0, 0) = 0.5;
    AT(B, 4, 1, 1) = -2.0;
    AT(B, 4, 2, 2) = c; AT(B, 4, 2, 3) = -s;
    AT(B, 4, 3, 2) = s; AT(B, 4, 3, 3) = c;
    reflect(4, u, B, phi);
    hes_monodromy m = nonautonomous(4, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_int_eq(st.n_mult, 4);
    const double want[4] = { 2.0, 1.1, 1.1, 0.5 };
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq_tol(hypot(st.re[k], st.im[k]), want[k], 1e-12);
    ck_assert_double_eq_tol(st.re[0], -2.0, 1e-12);
    ck_assert_double_eq_tol(st.re[1], c, 1e-12);
    ck_assert_double_eq_tol(fabs(st.im[1]), s, 1e-12);
    ck_assert_double_eq_tol(st.re[3], 0.5, 1e-12);
    ck_assert_double_eq_tol(st.psi, 2.0, 1e-12);
    ck_assert_int_eq(st.stable, 0);
    hes_stability_free(&st);
}
END_TEST

/* -------------------------------------------------------- autonomous case */

/*
 * P = V diag(0, l2, l3) W with W = V^-1 and the first row of W equal to the
 * section normal: normal^T P = e1^T diag(...) W = 0, the trivial eigenvalue
 * 0 has left eigenvector `normal` (and right eigenvector V e1, not along
 * normal), l2 and l3 are the nontrivial multipliers.  phi is set to 5 I so
 * that analysing phi instead of proj is caught.
 */
typedef struct {
    double W[9], V[9], proj[9], phi[9], normal[3];
} section_case;

static void build_section_case(section_case *c, double l2, double l3)
{
    /* rows of W: normal, and two left eigenvectors orthogonal to the
     * trivial right eigenvector V e1 = (1, 0, 0), which is far from normal */
    const double rows[3][3] = { { 1.0, 2.0, -1.0 }, { 0.0, 1.0, 3.0 }, { 0.0, 2.0, -1.0 } };
    double D[9] = { 0 }, T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            AT(c->W, 3, i, j) = rows[i][j];
    for (int j = 0; j < 3; j++)
        c->normal[j] = rows[0][j];
    inverse3(c->W, c->V);
    AT(D, 3, 1, 1) = l2;
    AT(D, 3, 2, 2) = l3;
    matmul(3, c->V, D, T);
    matmul(3, T, c->W, c->proj);
    for (int k = 0; k < 9; k++)
        c->phi[k] = (k % 4 == 0) ? 5.0 : 0.0;
    /* precondition: normal^T proj = 0 */
    for (int j = 0; j < 3; j++) {
        double s = 0.0;
        for (int i = 0; i < 3; i++)
            s += c->normal[i] * AT(c->proj, 3, i, j);
        ck_assert_double_eq_tol(s, 0.0, 1e-13);
    }
}

/* The dropped eigenvalue is ~0 and its left eigenvector lies along normal. */
static void assert_trivial_is_section_normal(const hes_stability *st, const double *normal)
{
    ck_assert_int_ge(st->trivial, 0);
    ck_assert_int_lt(st->trivial, st->n);
    ck_assert_double_eq(st->all_im[st->trivial], 0.0);
    ck_assert_double_lt(fabs(st->all_re[st->trivial]), 1e-12);
    ck_assert_double_lt(st->trivial_abs, 1e-12); /* |normal^T P| / |P|: P maps into the section */
    ck_assert_double_gt(column_cosine(st->vl, st->n, st->trivial, normal), 1.0 - 1e-10);
    for (int k = 0; k < st->n_mult; k++)
        ck_assert_int_ne(st->order[k], st->trivial);
}

START_TEST(test_autonomous_trivial_multiplier_is_found_by_left_eigenvector)
{
    section_case c;
    build_section_case(&c, 0.5, -0.3);
    hes_monodromy m = autonomous(3, c.phi, c.proj, c.normal);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_int_eq(st.n, 3);
    ck_assert_int_eq(st.n_mult, 2);
    assert_trivial_is_section_normal(&st, c.normal);
    /* the right eigenvector of the trivial 0 is V e1, which is not along
     * normal: only the left one identifies it */
    double v1[3] = { AT(c.V, 3, 0, 0), AT(c.V, 3, 1, 0), AT(c.V, 3, 2, 0) };
    ck_assert_double_lt(column_cosine(v1, 3, 0, c.normal), 0.9);
    ck_assert_double_eq_tol(st.re[0], 0.5, 1e-12);
    ck_assert_double_eq_tol(st.re[1], -0.3, 1e-12);
    ck_assert_double_eq_tol(st.psi, 0.5, 1e-12);
    ck_assert_int_eq(st.stable, 1);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_nontrivial_multiplier_of_exactly_one_is_kept)
{
    /* "drop the eigenvalue nearest 1" would drop 1.0 and report psi = 0.4 */
    section_case c;
    build_section_case(&c, 1.0, 0.4);
    hes_monodromy m = autonomous(3, c.phi, c.proj, c.normal);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_int_eq(st.n_mult, 2);
    assert_trivial_is_section_normal(&st, c.normal);
    ck_assert_double_eq_tol(st.re[0], 1.0, 1e-12);
    ck_assert_double_eq_tol(st.re[1], 0.4, 1e-12);
    ck_assert_double_eq_tol(st.psi, 1.0, 1e-12);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_nontrivial_multiplier_of_exactly_zero_is_kept)
{
    /* Two zero eigenvalues, the trivial one and a nontrivial one (a
     * deadbeat direction, which shaping aims for): their left eigenvectors
     * span a plane that contains normal, so "the" left eigenvector of 0 is
     * not unique (dgeev may return any basis of that plane, or one vector
     * twice).  Exactly one zero is dropped and the other stays among the
     * multipliers; which dgeev index is dropped is not defined. */
    section_case c;
    build_section_case(&c, 0.0, 0.7);
    hes_monodromy m = autonomous(3, c.phi, c.proj, c.normal);
    hes_stability st;
    hes_status s = hes_stability_compute(&m, &st);
    ck_assert_msg(s == HES_OK, "status %s for a double zero eigenvalue", hes_strerror(s));
    ck_assert_int_eq(st.n_mult, 2);
    ck_assert_int_ge(st.trivial, 0);
    ck_assert_double_lt(hypot(st.all_re[st.trivial], st.all_im[st.trivial]), 1e-12);
    ck_assert_double_eq_tol(st.re[0], 0.7, 1e-12);
    ck_assert_double_lt(hypot(st.re[1], st.im[1]), 1e-12);
    ck_assert_double_eq_tol(st.psi, 0.7, 1e-12);
    ck_assert_int_eq(st.stable, 1);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_unstable_autonomous_orbit_with_trivial_zero)
{
    section_case c;
    build_section_case(&c, -1.5, 0.2);
    hes_monodromy m = autonomous(3, c.phi, c.proj, c.normal);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    assert_trivial_is_section_normal(&st, c.normal);
    ck_assert_double_eq_tol(st.re[0], -1.5, 1e-12);
    ck_assert_double_eq_tol(st.re[1], 0.2, 1e-12);
    ck_assert_double_eq_tol(st.psi, 1.5, 1e-12);
    ck_assert_int_eq(st.stable, 0);
    hes_stability_free(&st);
}
END_TEST

/* diag(0.5, 0, 0.1): left eigenvectors e1, e2, e3 */
static double diag_proj[9] = { 0.5, 0, 0, 0, 0.0, 0, 0, 0, 0.1 };

START_TEST(test_no_left_eigenvector_along_normal_is_defective)
{
    /* none of e1, e2, e3 is within 1e-2 of (1, 1, 1) (cosine 0.577) */
    double normal[3] = { 1.0, 1.0, 1.0 };
    hes_monodromy m = autonomous(3, diag_proj, diag_proj, normal);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_EDEFECTIVE);
    ck_assert_ptr_null(st.re);
    hes_stability_free(&st); /* harmless after a failure */
}
END_TEST

START_TEST(test_matrix_that_does_not_map_into_the_section_is_rejected)
{
    /* diag(0.5, 0, 0.1) with normal e3: normal^T P = (0, 0, 0.1) != 0, so P
     * is no section projection and no eigenvalue may be dropped as trivial,
     * not even the one whose left eigenvector happens to be the normal */
    double e3[3] = { 0.0, 0.0, 1.0 };
    hes_monodromy m = autonomous(3, diag_proj, diag_proj, e3);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_EDEFECTIVE);
    ck_assert_ptr_null(st.re);
}
END_TEST

/* ------------------------------------------------------ condition number */

START_TEST(test_symmetric_monodromy_is_perfectly_conditioned)
{
    double phi[4] = { 2.0, 1.0, 1.0, 2.0 }; /* eigenvalues 3, 1 */
    hes_monodromy m = nonautonomous(2, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_double_eq_tol(st.psi, 3.0, 1e-14);
    ck_assert_double_eq_tol(st.re[1], 1.0, 1e-14);
    ck_assert_double_eq_tol(st.cond, 1.0, 1e-12);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_defective_jordan_block_has_huge_condition_number)
{
    double phi[4] = { 0.5, 0.0, 500.0, 0.5 }; /* 0.5 [[1, 1e3], [0, 1]] */
    hes_monodromy m = nonautonomous(2, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_double_eq_tol(st.psi, 0.5, 1e-6);
    ck_assert_msg(st.cond > 1e3, "cond = %g", st.cond);
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_rotated_jordan_block_has_huge_condition_number)
{
    /* the same defective block in another orthonormal basis: no longer
     * triangular, so dgeev sees a perturbed double eigenvalue */
    double J[9] = { 0 }, phi[9];
    const double u[3] = { 0.3, -1.0, 2.0 };
    AT(J, 3, 0, 0) = 0.5; AT(J, 3, 0, 1) = 500.0; AT(J, 3, 1, 1) = 0.5;
    AT(J, 3, 2, 2) = 0.1;
    reflect(3, u, J, phi);
    hes_monodromy m = nonautonomous(3, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_double_eq_tol(st.psi, 0.5, 1e-4); /* ~sqrt(eps |J|) accuracy */
    ck_assert_msg(st.cond > 1e3, "cond = %g", st.cond);
    ck_assert_double_eq_tol(hypot(st.re[2], st.im[2]), 0.1, 1e-12); /* simple: accurate */
    hes_stability_free(&st);
}
END_TEST

START_TEST(test_nearly_defective_block_condition_matches_closed_form)
{
    /* [[a, b], [0, d]]: for eigenvalue d the right eigenvector is (b, d - a),
     * the left one (0, 1), so cond = sqrt(b^2 + (d - a)^2) / |d - a| */
    const double a = 0.5, b = 500.0, d = 0.5 * (1.0 + 1e-6);
    double phi[4] = { a, 0.0, b, d };
    hes_monodromy m = nonautonomous(2, phi);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    ck_assert_double_eq_tol(st.psi, d, 1e-15);
    double want = sqrt(b * b + (d - a) * (d - a)) / fabs(d - a);
    ck_assert_msg(fabs(st.cond / want - 1.0) < 1e-3, "cond = %.6g, expected %.6g", st.cond, want);
    hes_stability_free(&st);
}
END_TEST

/* The largest change of psi over `trials` random perturbations E of M with
 * |E|_F = delta: what an error of that size in the analysed matrix does to
 * psi, computed directly (hes_stability_compute with accuracy 0). */
static double psi_spread(int n, const double *M, double delta, int trials, unsigned seed)
{
    hes_monodromy m = nonautonomous(n, (double *)M);
    hes_stability st;
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
    double psi0 = st.psi, worst = 0, P[16], E[16];
    hes_stability_free(&st);
    for (int t = 0; t < trials; t++) {
        double f = 0;
        for (int i = 0; i < n * n; i++) {
            E[i] = 2.0 * rand_r(&seed) / RAND_MAX - 1.0;
            f += E[i] * E[i];
        }
        for (int i = 0; i < n * n; i++)
            P[i] = M[i] + delta * E[i] / sqrt(f);
        hes_monodromy mp = nonautonomous(n, P);
        ck_assert_int_eq(hes_stability_compute(&mp, &st), HES_OK);
        worst = fmax(worst, fabs(st.psi - psi0));
        hes_stability_free(&st);
    }
    return worst;
}

/* psi_tol against what perturbations of the analysed matrix of the size it
 * assumes (delta = accuracy max(1, |M|_F)) do to psi: it must cover the
 * change they cause, and not exceed it by more than a factor 30, for a
 * well-separated multiplier, a double and a triple defective one (which
 * move with delta^(1/2) and delta^(1/3)), and a triple cluster of spread
 * 1e-3 that delta does not merge (first order: cond delta, above
 * delta^(1/2)).  Each matrix in a rotated basis (reflect): dgeev sees a
 * full matrix. */
START_TEST(test_psi_tolerance_covers_what_the_matrix_error_does)
{
    const double acc = 1e-10, u[4] = { 0.3, -1.0, 2.0, 0.7 };
    const struct {
        const char *name;
        double a, sup, corner; /* a on the diagonal, sup above it, corner at (2, 0) */
        int block;             /* the Jordan-like block's order */
    } cases[] = {
        { "separated", 0.9, 0.0, 0.0, 1 },
        { "double defective", 0.9, 1.0, 0.0, 2 },
        { "triple defective", 0.9, 1.0, 0.0, 3 },
        { "triple cluster, spread 1e-3", 0.9, 1.0, 1e-9, 3 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double J[16] = { 0 }, M[16], f = 0;
        for (int i = 0; i < 4; i++)
            AT(J, 4, i, i) = i < cases[k].block ? cases[k].a : 0.2 - 0.1 * i;
        for (int i = 0; i + 1 < cases[k].block; i++)
            AT(J, 4, i, i + 1) = cases[k].sup;
        if (cases[k].block == 3)
            AT(J, 4, 2, 0) = cases[k].corner;
        reflect(4, u, J, M);
        for (int i = 0; i < 16; i++)
            f += M[i] * M[i];
        hes_monodromy m = nonautonomous(4, M);
        m.accuracy = acc;
        hes_stability st;
        ck_assert_int_eq(hes_stability_compute(&m, &st), HES_OK);
        double delta = acc * fmax(1.0, sqrt(f)), seen = psi_spread(4, M, delta, 200, 5);
        ck_assert_msg(seen <= st.psi_tol && st.psi_tol <= 30 * seen,
                      "%s: psi moves by %.3g under errors of %.3g, psi_tol %.3g (cond %.3g)",
                      cases[k].name, seen, delta, st.psi_tol, st.cond);
        hes_stability_free(&st);
    }
}
END_TEST

/* ------------------------------------------------------------- bad input */

/* hes_stability_update on a second matrix of the same order gives, in the
 * same storage, exactly what a fresh hes_stability_compute gives; on a
 * matrix of another order it reallocates; the autonomous (deflated) path as
 * well. */
START_TEST(test_update_reuses_storage_and_equals_compute)
{
    section_case a, b;
    build_section_case(&a, 0.5, -0.3);
    build_section_case(&b, 0.9, 0.2);
    hes_monodromy ma = autonomous(3, a.phi, a.proj, a.normal);
    hes_monodromy mb = autonomous(3, b.phi, b.proj, b.normal);
    hes_stability st, ref;
    ck_assert_int_eq(hes_stability_compute(&ma, &st), HES_OK);
    double *work = st.work, *vr = st.vr;
    ck_assert_int_eq(hes_stability_update(&mb, &st), HES_OK);
    ck_assert_ptr_eq(st.work, work);
    ck_assert_ptr_eq(st.vr, vr);
    ck_assert_int_eq(hes_stability_compute(&mb, &ref), HES_OK);
    ck_assert_int_eq(st.n_mult, ref.n_mult);
    ck_assert_int_eq(st.trivial, ref.trivial);
    for (int k = 0; k < ref.n_mult; k++) {
        ck_assert(st.re[k] == ref.re[k] && st.im[k] == ref.im[k]);
        ck_assert(st.abs[k] == ref.abs[k]);
    }
    for (int k = 0; k < 9; k++)
        ck_assert(st.vl[k] == ref.vl[k] && st.vr[k] == ref.vr[k]);
    ck_assert(st.psi == ref.psi && st.cond == ref.cond && st.psi_tol == ref.psi_tol);
    ck_assert_double_eq_tol(st.psi, 0.9, 1e-12);
    /* another order: a 2 x 2 non-autonomous monodromy */
    double phi2[4] = { 0.3, 0.0, 0.0, -1.5 };
    hes_monodromy m2 = nonautonomous(2, phi2);
    ck_assert_int_eq(hes_stability_update(&m2, &st), HES_OK);
    ck_assert_int_eq(st.n, 2);
    ck_assert_double_eq_tol(st.psi, 1.5, 1e-14);
    ck_assert_int_eq(st.verdict, HES_UNSTABLE);
    /* a zeroed struct is accepted; a missing matrix is refused */
    hes_stability z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(hes_stability_update(&m2, &z), HES_OK);
    ck_assert(z.psi == st.psi);
    hes_monodromy none = nonautonomous(2, NULL);
    ck_assert_int_eq(hes_stability_update(&none, &z), HES_EINVAL);
    hes_stability_free(&z);
    hes_stability_free(&st);
    hes_stability_free(&ref);
}
END_TEST

START_TEST(test_missing_or_non_finite_matrices_are_rejected)
{
    hes_stability st;
    double phi[4] = { 1.0, 0.0, 0.0, 1.0 };
    hes_monodromy m = nonautonomous(2, NULL);
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_EINVAL);

    m = nonautonomous(0, phi);
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_EINVAL);

    m = autonomous(2, phi, phi, NULL); /* autonomous needs the normal */
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_EINVAL);

    phi[2] = NAN;
    m = nonautonomous(2, phi);
    ck_assert_int_eq(hes_stability_compute(&m, &st), HES_ENONFINITE);
    hes_stability_free(&st);
}
END_TEST

/* ------------------------------------------------------------------ suite */

static Suite *stability_suite(void)
{
    Suite *s = suite_create("stability");
    TCase *tc;

    tc = tcase_create("nonautonomous");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_diagonal_monodromy_psi_is_largest_modulus);
    tcase_add_test(tc, test_scaled_rotation_gives_stable_complex_pair);
    tcase_add_test(tc, test_multipliers_are_sorted_by_modulus_descending);
    suite_add_tcase(s, tc);

    tc = tcase_create("autonomous");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_autonomous_trivial_multiplier_is_found_by_left_eigenvector);
    tcase_add_test(tc, test_nontrivial_multiplier_of_exactly_one_is_kept);
    tcase_add_test(tc, test_nontrivial_multiplier_of_exactly_zero_is_kept);
    tcase_add_test(tc, test_unstable_autonomous_orbit_with_trivial_zero);
    tcase_add_test(tc, test_no_left_eigenvector_along_normal_is_defective);
    tcase_add_test(tc, test_matrix_that_does_not_map_into_the_section_is_rejected);
    suite_add_tcase(s, tc);

    tc = tcase_create("condition");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_symmetric_monodromy_is_perfectly_conditioned);
    tcase_add_test(tc, test_defective_jordan_block_has_huge_condition_number);
    tcase_add_test(tc, test_rotated_jordan_block_has_huge_condition_number);
    tcase_add_test(tc, test_nearly_defective_block_condition_matches_closed_form);
    tcase_add_test(tc, test_psi_tolerance_covers_what_the_matrix_error_does);
    suite_add_tcase(s, tc);

    tc = tcase_create("input");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_missing_or_non_finite_matrices_are_rejected);
    tcase_add_test(tc, test_update_reuses_storage_and_equals_compute);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    return test_run_suite(stability_suite());
}
