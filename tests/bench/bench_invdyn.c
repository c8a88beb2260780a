/*
 * bench_invdyn.c - inverse dynamics solve time against the number of
 * contacts (Zapolsky & Drumwright Sec. 8.4.2, Fig. 19): the 3-D quadruped
 * of share/robots stands on its four feet, and each foot-ground interface
 * carries k simultaneous contacts (the paper's "artificially increased"
 * contacts: copies of the foot's rows, each turned by a small angle about
 * the normal so that no two are identical), n = 4 k in all, 4 to 48.
 *
 * The motion changes the problem from node to node: the base sways
 * (accelerations along x, y, z and about the roll and pitch axes, one
 * cycle over the nodes) on fixed feet, the joints accelerating as the feet
 * require (J_base a_base + J_joints a_joints = 0, leg by leg), so that the
 * load moves between the feet and every contact force changes (the table
 * shows the median relative change of the forces from one node to the
 * next).  200 nodes one control period apart (20 above 16 contacts for the
 * slow formulations).  Per formulation and n: the mean time per solve,
 * warm (the previous node's active set, as in a controller) and cold (no
 * warm start: the paper's Algorithm 2 from its start; the same for the
 * formulations that have none), the pivots and complementarity problems
 * per solve, and the exponent of a least-squares fit time ~ n^p.  The
 * paper's Fig. 19 (a 2.7 GHz 2011 laptop) is printed beside: no-slip under
 * 1 ms beyond 40 contacts, linear; the QP formulations under 1 ms to about
 * 30 contacts warm-started; Coulomb's LCP about 1 ms below 4 contacts.
 * Needs MuJoCo (robot files); says so and exits 0 without it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hes.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A y = rhs for a 12 x 12 column-major A by Gaussian elimination with
 * partial pivoting (y holds rhs, then the solution); 1 if singular */
static int solve12(double *A, double *y)
{
    for (int c = 0; c < 12; c++) {
        int p = c;
        for (int r = c + 1; r < 12; r++)
            if (fabs(A[r + 12 * c]) > fabs(A[p + 12 * c]))
                p = r;
        if (!(fabs(A[p + 12 * c]) > 1e-12))
            return 1;
        for (int j = 0; j < 12; j++) {
            double t = A[c + 12 * j];
            A[c + 12 * j] = A[p + 12 * j];
            A[p + 12 * j] = t;
        }
        double t = y[c];
        y[c] = y[p];
        y[p] = t;
        for (int r = c + 1; r < 12; r++) {
            double m = A[r + 12 * c] / A[c + 12 * c];
            for (int j = c; j < 12; j++)
                A[r + 12 * j] -= m * A[c + 12 * j];
            y[r] -= m * y[c];
        }
    }
    for (int c = 11; c >= 0; c--) {
        for (int j = c + 1; j < 12; j++)
            y[c] -= A[c + 12 * j] * y[j];
        y[c] /= A[c + 12 * c];
    }
    return 0;
}

int main(void)
{
    const char *top = getenv("srcdir");
    char file[4096], msg[512];
    snprintf(file, sizeof file, "%s/share/robots/quadruped_3d.xml", top ? top : ".");
    const char *feet[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot_contact c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (hes_robot_contact){ feet[i], 1.0 };
    hes_robot *r = NULL;
    hes_status st = hes_robot_load(file, c, 4, &r, msg, sizeof msg);
    if (st == HES_ESOLVER) {
        printf("bench_invdyn: skipped: %s\n", msg);
        return 0;
    }
    if (st != HES_OK) {
        fprintf(stderr, "bench_invdyn: %s\n", msg);
        return 1;
    }
    /* standing: hips 0.5, knees -1, the base lowered onto the feet */
    double q[18] = { 0 }, v[18] = { 0 }, a[18] = { 0 };
    for (int l = 0; l < 4; l++)
        q[7 + 3 * l] = 0.5, q[8 + 3 * l] = -1.0;
    q[2] = 2 * 0.08 * cos(0.5) - 0.16;
    hes_robot_dynamics d;
    if (hes_robot_dynamics_at(r, q, v, &d, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "bench_invdyn: %s\n", msg);
        return 1;
    }
    const int ks[] = { 1, 2, 3, 4, 6, 8, 10, 12 };
    const char *only = getenv("BENCH_INVDYN_ONLY");
    const int nk = (int)(sizeof ks / sizeof ks[0]);
    const hes_invdyn_method methods[] = { HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB,
                                          HES_INVDYN_CONVEX, HES_INVDYN_CONVEX_NO_SLIP };
    /* the joints' accelerations for a base acceleration on fixed feet: leg
       l's rows (normal, two tangents of foot l) over its three joints */
    double Jb[12 * 6], Jj[12 * 12] = { 0 };
    for (int r = 0; r < 12; r++) {
        int foot = r % 4, dir = r / 4, row = dir * 4 + foot;
        for (int j = 0; j < 6; j++)
            Jb[r + 12 * j] = d.J[row + (size_t)j * 12];
        for (int j = 0; j < 12; j++)
            Jj[r + 12 * j] = d.J[row + (size_t)(6 + j) * 12];
    }
    printf("inverse dynamics solve time against contacts (3-D quadruped, 4 feet x k contacts, "
           "a sway on fixed feet: every node a new problem)\n"
           "the paper (Fig. 19, 2011 laptop): no-slip < 1 ms beyond 40 contacts, linear; the "
           "QP formulations < 1 ms to about 30 contacts warm-started; Coulomb about 1 ms below "
           "4 contacts\n");
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("%-15s %4s %6s %12s %12s %7s %8s %6s %10s\n", "formulation", "n", "nodes",
           "us warm", "us cold", "ok", "pivots", "LCPs", "df/f");
    for (int mi = 0; mi < 4; mi++) {
        if (only && strcmp(only, hes_invdyn_method_name(methods[mi])) != 0)
            continue;
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int npts = 0;
        for (int ki = 0; ki < nk; ki++) {
            int k = ks[ki], n = 4 * k, rows = 3 * n;
            int slow = methods[mi] == HES_INVDYN_CONVEX || methods[mi] == HES_INVDYN_COULOMB;
            int nodes = n <= 16 || !slow ? 200 : 20;
            /* Coulomb's LCP grows as 6 n: Lemke's cubic cost limits it here */
            if (methods[mi] == HES_INVDYN_COULOMB && n > 24)
                continue;
            double *J = malloc(sizeof(double) * (size_t)rows * 18), *b = calloc((size_t)rows, sizeof(double));
            double *mu = malloc(sizeof(double) * (size_t)n), *fprev = malloc(sizeof(double) * (size_t)rows);
            double *dfs = malloc(sizeof(double) * (size_t)nodes);
            /* contact i = foot i % 4, turned by an angle about the normal */
            for (int i = 0; i < n; i++) {
                int f = i % 4;
                double ang = 0.05 * (i / 4), ca = cos(ang), sa = sin(ang);
                mu[i] = 1.0;
                for (int j = 0; j < 18; j++) {
                    double jn = d.J[f + (size_t)j * 12], jx = d.J[4 + f + (size_t)j * 12],
                           jy = d.J[8 + f + (size_t)j * 12];
                    J[i + (size_t)j * rows] = jn;
                    J[n + i + (size_t)j * rows] = ca * jx + sa * jy;
                    J[2 * n + i + (size_t)j * rows] = -sa * jx + ca * jy;
                }
            }
            hes_invdyn_problem pb = { 18, 12, n, 2, d.M, d.h, d.B, J, b, mu, v, 1e-3, a, NULL };
            double us[2] = { 0, 0 };
            int ok = 0, ndf = 0;
            long piv = 0, lcps = 0;
            for (int cold = 0; cold < 2; cold++) {
                hes_invdyn *id = hes_invdyn_create(18, 12, n, 2);
                hes_invdyn_options o = { methods[mi], 0, 0,
                                         getenv("BENCH_INVDYN_STAGE1") ? 0 : 1, cold, 0, -1 };
                double t0 = now();
                for (int node = 0; node < nodes; node++) {
                    double ph = 2 * M_PI * node / nodes, ab[6] = {
                        0.6 * sin(ph), 0.6 * cos(ph), 0.3 * sin(2 * ph), 1.5 * sin(ph + 1),
                        1.5 * cos(2 * ph), 0 };
                    for (int j = 0; j < 6; j++)
                        a[j] = ab[j];
                    /* J_joints a_j = -J_base a_b (block diagonal: each leg's
                       3 x 3 by Gaussian elimination on the whole 12 x 12) */
                    double A[12 * 12], y[12];
                    memcpy(A, Jj, sizeof A);
                    for (int r = 0; r < 12; r++) {
                        y[r] = 0;
                        for (int j = 0; j < 6; j++)
                            y[r] -= Jb[r + 12 * j] * ab[j];
                    }
                    if (solve12(A, y)) {
                        fprintf(stderr, "bench_invdyn: the legs' Jacobian is singular\n");
                        return 1;
                    }
                    for (int j = 0; j < 12; j++)
                        a[6 + j] = y[j];
                    hes_invdyn_result res;
                    hes_status s2 = hes_invdyn_solve(id, &pb, &o, &res, msg, sizeof msg);
                    if (cold)
                        continue;
                    ok += s2 == HES_OK || s2 == HES_EINFEASIBLE;
                    piv += res.pivots, lcps += res.lcps;
                    if (s2 == HES_OK || s2 == HES_EINFEASIBLE) {   /* change of the forces */
                        double dd = 0, fs = 0;
                        for (int r = 0; r < rows; r++) {
                            dd = fmax(dd, fabs(res.f[r] - fprev[r]));
                            fs = fmax(fs, fabs(res.f[r]));
                        }
                        if (node > 0 && fs > 0)
                            dfs[ndf++] = dd / fs;
                        memcpy(fprev, res.f, sizeof(double) * (size_t)rows);
                    }
                }
                us[cold] = (now() - t0) / nodes * 1e6;
                hes_invdyn_destroy(id);
            }
            qsort(dfs, (size_t)ndf, sizeof *dfs, cmp_double);
            printf("%-15s %4d %6d %12.1f %12.1f %3d/%d %8.1f %6.2f %10.2e\n",
                   hes_invdyn_method_name(methods[mi]), n, nodes, us[0], us[1], ok, nodes,
                   (double)piv / nodes, (double)lcps / nodes, ndf ? dfs[ndf / 2] : NAN);
            double x = log(n), yv = log(us[0]);
            sx += x, sy += yv, sxx += x * x, sxy += x * yv, npts++;
            free(J), free(b), free(mu), free(fprev), free(dfs);
        }
        double p = (npts * sxy - sx * sy) / (npts * sxx - sx * sx);
        printf("%-15s fitted time (warm) ~ n^%.2f\n", hes_invdyn_method_name(methods[mi]), p);
    }
    hes_robot_free(r);
    return 0;
}
