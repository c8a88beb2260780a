/*
 * bench_invdyn.c - inverse dynamics solve time against the number of
 * contacts (Zapolsky & Drumwright Sec. 8.4.2, Fig. 19): the 3-D quadruped
 * of share/robots, each stance foot's interface carrying k simultaneous
 * contacts (the paper's "artificially increased" contacts: copies of the
 * foot's rows, each turned by a small angle about the normal so that no
 * two are identical), n = 4 k for four feet, k = 1 to 12.
 *
 * Two motions, each a new problem at every node:
 *   sway  the base sways (accelerations along x, y, z and about the roll
 *         and pitch axes, one cycle over 200 nodes) on four fixed feet;
 *   trot  the trot of share/data/quadruped_trot.csv (two gait cycles,
 *         241 nodes at 400 Hz, velocities and accelerations by finite
 *         differences), its stance feet from the file: two to four feet.
 * At every node the stance legs' joints accelerate as their fixed feet
 * require (J a + b = 0, leg by leg, for the rest of a), so that the load
 * moves between the feet and every contact force changes (the table shows
 * the median relative change of the forces from one node to the next).
 * Per motion, formulation and k: the mean time of hes_invdyn_solve alone
 * (the robot's dynamics come first, untimed), warm (the previous node's
 * active set, as in a controller; a workspace per stance set) and cold (no
 * warm start: the paper's Algorithm 2 from its start; the same for the
 * formulations that have none), the pivots (or active-set changes) and
 * LCPs per solve, and the exponent of a least-squares fit time ~ n^p.
 * Then the convex formulation in the contact forces against its KKT
 * LCPs (options.qp_lcp, the method the paper describes), node by node on
 * the same problems in alternating order: the ratio of their times.  The
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
#include <unistd.h>

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

/* A y = rhs for an n x n column-major A (n <= 3) by Gaussian elimination
 * with partial pivoting (y holds rhs, then the solution); 1 if singular */
static int solve_small(int n, double *A, double *y)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r + n * c]) > fabs(A[p + n * c]))
                p = r;
        if (!(fabs(A[p + n * c]) > 1e-12))
            return 1;
        for (int j = 0; j < n; j++) {
            double t = A[c + n * j];
            A[c + n * j] = A[p + n * j];
            A[p + n * j] = t;
        }
        double t = y[c];
        y[c] = y[p];
        y[p] = t;
        for (int r = c + 1; r < n; r++) {
            double m = A[r + n * c] / A[c + n * c];
            for (int j = c; j < n; j++)
                A[r + n * j] -= m * A[c + n * j];
            y[r] -= m * y[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int j = c + 1; j < n; j++)
            y[c] -= A[c + n * j] * y[j];
        y[c] /= A[c + n * c];
    }
    return 0;
}

#define NV 18
#define NU 12

/* One node's problem with k contacts per stance foot */
typedef struct {
    int mask, nc;                     /* stance feet (bit l: foot l), contacts */
    double M[NV * NV], h[NV], B[NV * NU], v[NV], a[NV];
    double *J, *b, *mu;
    hes_invdyn_problem pb;
} node;

/* The node at (q, v) with base and swing-joint accelerations a (the
 * stance legs' joints are overwritten): the robot's dynamics, the stance
 * legs' joint accelerations that keep their feet in place, and the k
 * turned copies of each stance foot's rows. */
static int make_node(hes_robot *r, const double *q, const double *v, double *a, int mask, int k,
                     node *nd, char *msg, size_t len)
{
    hes_robot_dynamics d;
    hes_error e;
    if (hes_robot_dynamics_at(r, q, v, &d, &e) != HES_OK) {
        snprintf(msg, len, "%s", e.message);
        return 1;
    }
    int active[4], ns = 0;
    for (int l = 0; l < 4; l++)
        ns += active[l] = (mask >> l) & 1;
    double J1[12 * NV], b1[12], mu1[4];
    hes_invdyn_problem p1;
    hes_invdyn_problem_robot(&d, active, v, a, 1e-3, 1, J1, b1, mu1, &p1);
    /* stance leg l (the s-th stance foot): its rows over its three joints */
    for (int l = 0, s = 0; l < 4; l++) {
        if (!active[l])
            continue;
        double A[9], y[3];
        for (int dir = 0; dir < 3; dir++) {
            int row = dir * ns + s;
            y[dir] = -b1[row];
            for (int j = 0; j < NV; j++)
                if (j < 6 + 3 * l || j > 8 + 3 * l)
                    y[dir] -= J1[row + (size_t)j * 3 * ns] * a[j];
            for (int c = 0; c < 3; c++)
                A[dir + 3 * c] = J1[row + (size_t)(6 + 3 * l + c) * 3 * ns];
        }
        if (solve_small(3, A, y)) {
            snprintf(msg, len, "leg %d's Jacobian is singular", l);
            return 1;
        }
        for (int c = 0; c < 3; c++)
            a[6 + 3 * l + c] = y[c];
        s++;
    }
    int n = ns * k, rows = 3 * n;
    memcpy(nd->M, d.M, sizeof nd->M), memcpy(nd->h, d.h, sizeof nd->h);
    memcpy(nd->B, d.B, sizeof nd->B), memcpy(nd->v, v, sizeof nd->v);
    memcpy(nd->a, a, sizeof nd->a);
    nd->mask = mask, nd->nc = n;
    nd->J = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1) * NV);
    nd->b = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1));
    nd->mu = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!nd->J || !nd->b || !nd->mu)
        return 1;
    /* contact i = stance foot i % ns, turned by 0.05 (i / ns) about the normal */
    for (int i = 0; i < n; i++) {
        int f = i % ns;
        double ang = 0.05 * (i / ns), ca = cos(ang), sa = sin(ang);
        nd->mu[i] = 1.0;
        for (int j = 0; j < NV; j++) {
            double jn = J1[f + (size_t)j * 3 * ns], jx = J1[ns + f + (size_t)j * 3 * ns],
                   jy = J1[2 * ns + f + (size_t)j * 3 * ns];
            nd->J[i + (size_t)j * rows] = jn;
            nd->J[n + i + (size_t)j * rows] = ca * jx + sa * jy;
            nd->J[2 * n + i + (size_t)j * rows] = -sa * jx + ca * jy;
        }
        nd->b[i] = b1[f];
        nd->b[n + i] = ca * b1[ns + f] + sa * b1[2 * ns + f];
        nd->b[2 * n + i] = -sa * b1[ns + f] + ca * b1[2 * ns + f];
    }
    nd->pb = (hes_invdyn_problem){ NV, NU, n, 2, nd->M, nd->h, nd->B, nd->J, nd->b, nd->mu,
                                   nd->v, 1e-3, nd->a, NULL };
    return 0;
}

static void free_nodes(node *nd, int nodes)
{
    for (int i = 0; i < nodes; i++)
        free(nd[i].J), free(nd[i].b), free(nd[i].mu);
    free(nd);
}

/* The trot's samples: t, q (nodes x NV) and the stance masks */
static int read_trot(const char *path, int *nodes, double **t, double **q, int **mask)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char line[4096];
    int cap = 512, n = 0;
    *t = malloc(sizeof(double) * cap), *q = malloc(sizeof(double) * cap * NV);
    *mask = malloc(sizeof(int) * cap);
    if (!fgets(line, sizeof line, f) || !*t || !*q || !*mask) {
        fclose(f);
        return 1;
    }
    while (n < cap && fgets(line, sizeof line, f)) {
        char *p = line, *e;
        (*t)[n] = strtod(p, &e);
        if (e == p)
            break;
        for (int j = 0; j < NV; j++) {
            p = e + 1;
            (*q)[n * NV + j] = strtod(p, &e);
        }
        int m = 0;
        for (int l = 0; l < 4; l++) {
            p = e + 1;
            m |= (strtol(p, &e, 10) != 0) << l;
        }
        (*mask)[n++] = m;
    }
    fclose(f);
    *nodes = n;
    return n < 3;
}

/* The nodes of a motion (0 sway, 1 trot) with k contacts per stance foot */
static node *motion_nodes(hes_robot *r, int motion, int k, const char *top, int *nodes,
                          char *msg, size_t len)
{
    node *nd = NULL;
    if (motion == 0) {
        /* standing: hips 0.5, knees -1, the base lowered onto the feet */
        double q[NV] = { 0 }, v[NV] = { 0 }, a[NV];
        for (int l = 0; l < 4; l++)
            q[7 + 3 * l] = 0.5, q[8 + 3 * l] = -1.0;
        q[2] = 2 * 0.08 * cos(0.5) - 0.16;
        *nodes = 200;
        nd = calloc((size_t)*nodes, sizeof *nd);
        for (int i = 0; nd && i < *nodes; i++) {
            double ph = 2 * M_PI * i / *nodes, ab[6] = { 0.6 * sin(ph), 0.6 * cos(ph),
                                                         0.3 * sin(2 * ph), 1.5 * sin(ph + 1),
                                                         1.5 * cos(2 * ph), 0 };
            memset(a, 0, sizeof a);
            memcpy(a, ab, sizeof ab);
            if (make_node(r, q, v, a, 15, k, &nd[i], msg, len)) {
                free_nodes(nd, *nodes);
                return NULL;
            }
        }
        return nd;
    }
    char path[4096];
    double *t = NULL, *q = NULL;
    int *mask = NULL, n = 0;
    snprintf(path, sizeof path, "%s/share/data/quadruped_trot.csv", top);
    if (read_trot(path, &n, &t, &q, &mask)) {
        snprintf(msg, len, "cannot read %.400s", path);
        free(t), free(q), free(mask);
        return NULL;
    }
    double *v = malloc(sizeof(double) * (size_t)n * NV), *a = malloc(sizeof(double) * (size_t)n * NV);
    nd = calloc((size_t)n, sizeof *nd);
    int bad = !v || !a || !nd || hes_sampled_derivatives(n, NV, t, q, v, a) != HES_OK;
    for (int i = 0; !bad && i < n; i++)
        bad = make_node(r, q + (size_t)i * NV, v + (size_t)i * NV, a + (size_t)i * NV, mask[i],
                        k, &nd[i], msg, len);
    free(t), free(q), free(mask), free(v), free(a);
    if (bad) {
        if (nd)
            free_nodes(nd, n);
        return NULL;
    }
    *nodes = n;
    return nd;
}

/* One pass over the nodes with one formulation: a workspace per stance
 * set; the time of the solves alone (us per solve), their pivots and
 * LCPs, the solves that ended OK or infeasible, and the median change of
 * the forces between consecutive nodes of the same stance set. */
typedef struct {
    double us, pivots, lcps, dfdf;
    int ok;
} pass_result;

static pass_result run_pass(node *nd, int nodes, const hes_invdyn_options *o)
{
    hes_invdyn *ws[16] = { 0 };
    pass_result pr = { 0 };
    double *dfs = malloc(sizeof(double) * (size_t)nodes), *fprev = NULL, t = 0;
    int ndf = 0, prev_mask = -1;
    hes_error msg;
    for (int i = 0; i < nodes; i++) {
        node *x = &nd[i];
        if (!ws[x->mask])
            hes_invdyn_new(NV, NU, x->nc, 2, &ws[x->mask], NULL);
        hes_invdyn_result res;
        double t0 = now();
        hes_status st = hes_invdyn_solve(ws[x->mask], &x->pb, o, &res, &msg);
        t += now() - t0;
        int good = st == HES_OK || st == HES_EINFEASIBLE;
        pr.ok += good;
        pr.pivots += res.pivots, pr.lcps += res.lcps;
        int rows = 3 * x->nc;
        if (good && prev_mask == x->mask && fprev) {
            double dd = 0, fs = 0;
            for (int r = 0; r < rows; r++) {
                dd = fmax(dd, fabs(res.f[r] - fprev[r]));
                fs = fmax(fs, fabs(res.f[r]));
            }
            if (fs > 0)
                dfs[ndf++] = dd / fs;
        }
        free(fprev);
        fprev = good ? malloc(sizeof(double) * (size_t)rows) : NULL;
        if (fprev)
            memcpy(fprev, res.f, sizeof(double) * (size_t)rows);
        prev_mask = good ? x->mask : -1;
    }
    free(fprev);
    for (int m = 0; m < 16; m++)
        hes_invdyn_destroy(ws[m]);
    qsort(dfs, (size_t)ndf, sizeof *dfs, cmp_double);
    pr.dfdf = ndf ? dfs[ndf / 2] : NAN;
    free(dfs);
    pr.us = t / nodes * 1e6;
    pr.pivots /= nodes, pr.lcps /= nodes;
    return pr;
}

int main(void)
{
    const char *top = getenv("srcdir");
    char file[4096];
    hes_error msg;
    top = top ? top : ".";
    snprintf(file, sizeof file, "%s/share/robots/quadruped_3d.xml", top);
    const char *feet[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot_contact c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (hes_robot_contact){ feet[i], 1.0 };
    hes_robot *r = NULL;
    hes_status st = hes_robot_read(file, c, 4, &r, &msg);
    if (st == HES_ESOLVER) {
        printf("bench_invdyn: skipped: %s\n", msg.message);
        return 0;
    }
    if (st != HES_OK) {
        fprintf(stderr, "bench_invdyn: %s\n", msg.message);
        return 1;
    }
    const int ks[] = { 1, 2, 3, 4, 6, 8, 10, 12 };
    const int nk = (int)(sizeof ks / sizeof ks[0]);
    const char *only = getenv("BENCH_INVDYN_ONLY");
    const hes_invdyn_method methods[] = { HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB,
                                          HES_INVDYN_CONVEX, HES_INVDYN_CONVEX_NO_SLIP };
    const char *motions[2] = { "sway", "trot" };
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("inverse dynamics solve time against contacts (3-D quadruped, k contacts per "
           "stance foot; every node a new problem), %ld cores\n"
           "the paper (Fig. 19, 2011 laptop): no-slip < 1 ms beyond 40 contacts, linear; the "
           "QP formulations < 1 ms to about 30 contacts warm-started; Coulomb about 1 ms below "
           "4 contacts\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("%-6s %-15s %4s %6s %10s %10s %8s %8s %6s %9s\n", "motion", "formulation", "n",
           "nodes", "us warm", "us cold", "ok", "pivots", "LCPs", "df/f");
    double fit[2][4][4];            /* motion, formulation: sx, sy, sxx, sxy */
    int npts[2][4] = { { 0 } };
    memset(fit, 0, sizeof fit);
    for (int ki = 0; ki < nk; ki++)
        for (int mo = 0; mo < 2; mo++) {
            int k = ks[ki], nodes;
            node *nd = motion_nodes(r, mo, k, top, &nodes, msg.message, sizeof msg.message);
            if (!nd) {
                fprintf(stderr, "bench_invdyn: %s\n", msg.message);
                return 1;
            }
            for (int mi = 0; mi < 4; mi++) {
                if (only && strcmp(only, hes_invdyn_method_name(methods[mi])) != 0)
                    continue;
                hes_invdyn_options o = { .method = methods[mi],
                                         .stage2 = getenv("BENCH_INVDYN_STAGE1") ? 0 : 1,
                                         .tol_eom = -1 };
                /* the cold runs of the LCP formulations on 20 nodes above 16 contacts */
                int cold_nodes = methods[mi] == HES_INVDYN_COULOMB && 4 * k > 16 ? 20 : nodes;
                pass_result w = run_pass(nd, nodes, &o);
                o.cold = 1;
                pass_result cd = run_pass(nd, cold_nodes, &o);
                printf("%-6s %-15s %4d %6d %10.1f %10.1f %4d/%-3d %8.1f %6.2f %9.2e\n",
                       motions[mo], hes_invdyn_method_name(methods[mi]), 4 * k, nodes, w.us,
                       cd.us, w.ok, nodes, w.pivots, w.lcps, w.dfdf);
                double x = log(4 * k), y = log(w.us), *F = fit[mo][mi];
                F[0] += x, F[1] += y, F[2] += x * x, F[3] += x * y;
                npts[mo][mi]++;
            }
            free_nodes(nd, nodes);
        }
    for (int mo = 0; mo < 2; mo++)
        for (int mi = 0; mi < 4; mi++) {
            double *F = fit[mo][mi];
            int np = npts[mo][mi];
            if (np > 1)
                printf("%-6s %-15s fitted time (warm) ~ n^%.2f\n", motions[mo],
                       hes_invdyn_method_name(methods[mi]),
                       (np * F[3] - F[0] * F[1]) / (np * F[2] - F[0] * F[0]));
        }
    /* the convex formulation in the forces against its KKT LCPs, node by
       node in alternating order on the sway's first 20 nodes */
    if (!only || strcmp(only, "convex") == 0) {
        printf("convex (Stage I and II) in the contact forces vs the KKT LCPs (options.qp_lcp), "
               "alternating node by node, cold, 20 sway nodes\n%4s %12s %12s %8s\n", "n",
               "us forces", "us LCPs", "ratio");
        const int kb[] = { 1, 2, 4, 6 };
        for (int ki = 0; ki < 4; ki++) {
            int nodes;
            node *nd = motion_nodes(r, 0, kb[ki], top, &nodes, msg.message, sizeof msg.message);
            if (!nd) {
                fprintf(stderr, "bench_invdyn: %s\n", msg.message);
                return 1;
            }
            double tt[2] = { 0, 0 };
            hes_invdyn *ws = NULL;
            hes_invdyn_new(NV, NU, nd[0].nc, 2, &ws, NULL);
            for (int i = 0; i < 20; i++)
                for (int pass = 0; pass < 2; pass++) {
                    int lcp = (i + pass) % 2;
                    hes_invdyn_options o = { .method = HES_INVDYN_CONVEX, .stage2 = 1,
                                             .tol_eom = -1, .cold = 1, .qp_lcp = lcp };
                    hes_invdyn_result res;
                    double t0 = now();
                    hes_invdyn_solve(ws, &nd[i].pb, &o, &res, &msg);
                    tt[lcp] += now() - t0;
                }
            hes_invdyn_destroy(ws);
            printf("%4d %12.1f %12.1f %8.0f\n", nd[0].nc, tt[0] / 20 * 1e6, tt[1] / 20 * 1e6,
                   tt[1] / tt[0]);
            free_nodes(nd, nodes);
        }
    }
    hes_robot_destroy(r);
    return 0;
}
