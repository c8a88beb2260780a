/*
 * bench_invdyn.c - inverse dynamics solve time against the number of
 * contacts (Zapolsky & Drumwright Sec. 8.4.2, Fig. 19): the 3-D quadruped
 * of share/robots stands on its four feet, and each foot-ground interface
 * carries k simultaneous contacts (the paper's "artificially increased"
 * contacts: copies of the foot's rows, each turned by a small angle about
 * the normal so that no two are identical), n = 4 k in all.  The desired
 * motion sways the body on fixed feet (consistent with every contact),
 * 200 nodes one control period apart (20 above 16 contacts), so the no-slip warm start works as
 * in a controller.  Printed per formulation and n: the mean time per solve
 * and its ratio to the same formulation at n = 4 (measured in this run),
 * and the exponent of a least-squares fit time ~ n^p.
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
    const int ks[] = { 1, 2, 3, 4, 6, 8, 10 };
    const char *only = getenv("BENCH_INVDYN_ONLY");
    const int nk = (int)(sizeof ks / sizeof ks[0]);
    const hes_invdyn_method methods[] = { HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB,
                                          HES_INVDYN_CONVEX, HES_INVDYN_CONVEX_NO_SLIP };
    printf("inverse dynamics solve time against contacts (3-D quadruped, 4 feet x k contacts, "
           "200 nodes each, 20 above n = 16)\n");
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("%-15s %4s %12s %10s %7s %8s %6s\n", "formulation", "n", "us/solve", "vs n=4", "ok",
           "pivots", "LCPs");
    for (int mi = 0; mi < 4; mi++) {
        if (only && strcmp(only, hes_invdyn_method_name(methods[mi])) != 0)
            continue;
        double base = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        int npts = 0;
        for (int ki = 0; ki < nk; ki++) {
            int k = ks[ki], n = 4 * k, rows = 3 * n;
            int nodes = n <= 16 ? 200 : 20;    /* the large convex ones take ~0.5 s each */
            /* Coulomb's LCP grows as 6 n: Lemke's cubic cost limits it here */
            if (methods[mi] == HES_INVDYN_COULOMB && n > 24)
                continue;
            double *J = malloc(sizeof(double) * (size_t)rows * 18), *b = calloc((size_t)rows, sizeof(double));
            double *mu = malloc(sizeof(double) * (size_t)n);
            hes_invdyn *id = hes_invdyn_create(18, 12, n, 2);
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
            hes_invdyn_options o = { methods[mi], 0, 0, getenv("BENCH_INVDYN_STAGE1") ? 0 : 1, 0, 0,
                                     -1 };
            int ok = 0;
            long piv = 0, lcps = 0;
            double t0 = now();
            for (int node = 0; node < nodes; node++) {
                /* sway: the base accelerates, the joints follow the fixed feet
                   to first order (their exact values do not matter for time) */
                double ph = 2 * M_PI * node / nodes;
                a[0] = 0.3 * sin(ph), a[1] = 0.3 * cos(ph), a[2] = 0.1 * sin(2 * ph);
                hes_invdyn_result res;
                hes_status s2 = hes_invdyn_solve(id, &pb, &o, &res, msg, sizeof msg);
                ok += s2 == HES_OK || s2 == HES_EINFEASIBLE;
                piv += res.pivots, lcps += res.lcps;
            }
            double us = (now() - t0) / nodes * 1e6;
            if (ki == 0)
                base = us;
            printf("%-15s %4d %12.1f %10.2f %3d/%d %8.1f %6.2f\n",
                   hes_invdyn_method_name(methods[mi]), n, us, us / base, ok, nodes,
                   (double)piv / nodes, (double)lcps / nodes);
            double x = log(n), y = log(us);
            sx += x, sy += y, sxx += x * x, sxy += x * y, npts++;
            hes_invdyn_destroy(id);
            free(J), free(b), free(mu);
        }
        double p = (npts * sxy - sx * sy) / (npts * sxx - sx * sx);
        printf("%-15s fitted time ~ n^%.2f\n", hes_invdyn_method_name(methods[mi]), p);
    }
    hes_robot_free(r);
    return 0;
}
