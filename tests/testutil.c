/*
 * testutil.c - the common main() body of the Check suites.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NX 16

int test_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

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

/* Flow from (mode, model time tm) over dur with every guard armed: exactly
 * one event into expect_mode; the final state goes to out. */
static void flow(hes_system *sys, int mode, double tm, const double *z, double dur,
                 int expect_mode, double *out)
{
    hes_sim_options o;
    hes_sim_options_init(&o);
    hes_traj tr;
    o.t_end = dur;
    ck_assert_msg(hes_simulate(sys, mode, 0.0, tm, z, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_events, 1);
    const hes_phase *ph = &tr.phases[tr.n_phases - 1];
    ck_assert_int_eq(ph->mode, expect_mode);
    memcpy(out, ph->x1, sizeof(double) * (size_t)hes_system_model(sys)->modes[expect_mode].dim);
    hes_traj_free(&tr);
}

double test_saltation_vs_flow(hes_system *sys, const hes_event *ev, double d)
{
    const hes_model *m = hes_system_model(sys);
    const hes_transition *T = &m->transitions[ev->transition];
    int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
    ck_assert(ni <= NX && nj <= NX);
    double tm_after = T->clock_reset ? 0.0 : ev->tm;
    double z[NX], zz[NX], fp[NX], fm[NX], Apre[NX * NX], Apost[NX * NX], xi[NX * NX],
        tmp[NX * NX], lin[NX * NX], fd[NX * NX];
    /* the state d before the event, by integrating backwards */
    ck_assert_int_eq(hes_variational(sys, T->from, ev->tm, -d, ev->x_minus, z, NULL), HES_OK);
    ck_assert_int_eq(hes_variational(sys, T->from, ev->tm - d, d, z, NULL, Apre), HES_OK);
    ck_assert_int_eq(hes_saltation(sys, ev->transition, ev->tm, ev->x_minus, xi), HES_OK);
    ck_assert_int_eq(hes_variational(sys, T->to, tm_after, d, ev->x_plus, NULL, Apost), HES_OK);
    matmul(nj, ni, ni, xi, Apre, tmp);
    matmul(nj, nj, ni, Apost, tmp, lin);
    for (int j = 0; j < ni; j++) {
        double h = 1e-6 * fmax(1.0, fabs(z[j]));
        memcpy(zz, z, sizeof(double) * (size_t)ni);
        zz[j] = z[j] + h;
        flow(sys, T->from, ev->tm - d, zz, 2 * d, T->to, fp);
        zz[j] = z[j] - h;
        flow(sys, T->from, ev->tm - d, zz, 2 * d, T->to, fm);
        for (int i = 0; i < nj; i++)
            fd[i + j * nj] = (fp[i] - fm[i]) / (2 * h);
    }
    double diff = 0, scale = 0;
    for (int i = 0; i < ni * nj; i++) {
        diff = fmax(diff, fabs(lin[i] - fd[i]));
        scale = fmax(scale, fabs(fd[i]));
    }
    return diff / fmax(1.0, scale);
}

hes_system *test_system(const char *name)
{
    const hes_model *m = hes_problem_find(name);
    ck_assert_ptr_nonnull(m);
    hes_system *sys = test_system_of(m);
    ck_assert_ptr_nonnull(sys);
    return sys;
}

int test_solve(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r + c * n]) > fabs(A[piv + c * n]))
                piv = r;
        if (fabs(A[piv + c * n]) < 1e-14)
            return 0;
        for (int j = 0; j < n; j++) {
            double t = A[c + j * n];
            A[c + j * n] = A[piv + j * n];
            A[piv + j * n] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; r++) {
            double f = A[r + c * n] / A[c + c * n];
            for (int j = c; j < n; j++)
                A[r + j * n] -= f * A[c + j * n];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < n; j++)
            s -= A[r + j * n] * b[j];
        b[r] = s / A[r + r * n];
    }
    return 1;
}

int test_have_lcp(const char *suite)
{
    double M = 1, q = -1, z, w;
    hes_error msg;
    if (hes_lcp_solve(1, &M, &q, 1e-9, &z, &w, NULL, &msg) == HES_ESOLVER) {
        ck_assert_msg(strstr(msg.message, "libsiconos-numerics-dev"), "%s", msg.message);
        printf("%s: %s: skipped\n", suite, msg.message);
        return 0;
    }
    return 1;
}

const char *test_robot_file(char *buf, size_t len, const char *name)
{
    const char *top = getenv("top_srcdir");
    snprintf(buf, len, "%s/share/robots/%s", top ? top : ".", name);
    return buf;
}

hes_system *test_system_of(const hes_model *m)
{
    hes_system *sys;
    return hes_system_new(m, &sys, NULL) == HES_OK ? sys : NULL;
}
