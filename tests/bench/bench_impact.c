/*
 * bench_impact.c - the paper's Table 3 (Halm & Posa, Sec. 5.4: LCPs per
 * sample, time per sample, time per LCP) for the four built-in impact
 * problems, with Lemke's choice at every step (as the paper takes PATH's)
 * and with random selection among a step's solutions (hes impact's
 * default), and samples per second on 1 and 2 threads, as a ratio measured
 * in the same run.  Paper's means: 2.67, 2.27, 1.97, (RAMone 3.20), 9.04.
 * Then what random selection costs per LCP as contacts are added: Lemke's
 * method against Siconos's enumeration from a random start (the choice
 * random selection makes for 5k <= 20) on LCPs of an impact's shape, n =
 * 5k for k contacts, interleaved on the same problems.
 *
 *   make bench   (or tests/bench/bench_impact [SAMPLES])
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "hes.h"

static const double paper[] = { 2.67, 2.27, 1.97, 9.04 };

/* one run; *best keeps the fastest of the repetitions */
static int run(const hes_impact_problem *pb, hes_impact_setup *s, int samples,
               unsigned long select, int threads, hes_impact_set *S, double *best)
{
    hes_impact_set_options o;
    hes_impact_set_options_init(&o);
    o.samples = samples;
    o.routh.h = pb->h;
    o.routh.steps = pb->steps;
    o.routh.tol = 0;
    o.routh.select = select;
    o.threads = threads;
    hes_error msg;
    if (hes_impact_set_sample(&s->contacts, s->v, &o, S, &msg) != HES_OK) {
        fprintf(stderr, "bench_impact: %s: %s\n", pb->name, msg.message);
        return 1;
    }
    if (*best == 0 || S->seconds < *best)
        *best = S->seconds;
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* a uniform number in [0, 1) from a 64-bit linear congruential generator */
static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 9007199254740992.0;
}

/* Lemke against enumeration from a random start on `reps` LCPs of size n =
 * 5k: M = A A^T + 0.1 I with A uniform in [-0.5, 0.5), q uniform in [-0.7,
 * 0.3) (a solution exists: M is positive definite). */
static int lcp_costs(int k, int reps)
{
    int n = 5 * k;
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *M = malloc(sizeof(double) * (size_t)(n * n));
    double *q = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n),
           *w = malloc(sizeof(double) * (size_t)n);
    unsigned long long state = 7;
    double tl = 0, te = 0;
    int rc = !A || !M || !q || !z || !w;
    for (int r = 0; r < reps && !rc; r++) {
        for (int i = 0; i < n * n; i++)
            A[i] = uniform(&state) - 0.5;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double sum = i == j ? 0.1 : 0;
                for (int l = 0; l < n; l++)
                    sum += A[i + l * n] * A[j + l * n];
                M[i + j * n] = sum;
            }
        for (int i = 0; i < n; i++)
            q[i] = uniform(&state) - 0.7;
        double t0 = now();
        hes_status a = hes_lcp_solve(n, M, q, 1e-10, z, w, NULL, NULL);
        double t1 = now();
        hes_status b = hes_lcp_solve_from(n, M, q, 1e-10, 1 + (unsigned long)(uniform(&state) * 1e9),
                                          z, w, NULL, NULL);
        double t2 = now();
        tl += t1 - t0;
        te += t2 - t1;
        if (a != HES_OK || b != HES_OK) {
            fprintf(stderr, "bench_impact: an LCP of size %d was not solved\n", n);
            rc = 1;
        }
    }
    if (!rc)
        printf("%8d %4d %6d %12.1f %14.1f %10.0f\n", k, n, reps, 1e6 * tl / reps, 1e6 * te / reps,
               te / tl);
    free(A), free(M), free(q), free(z), free(w);
    return rc;
}

int main(int argc, char **argv)
{
    int samples = argc > 1 ? atoi(argv[1]) : 16384;
    printf("bench_impact: %ld cores online\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("impact sets (Halm & Posa Table 3): %d samples each, h and N the paper's\n", samples);
    printf("%-20s %6s | %8s %9s %9s | %8s %9s %9s | %9s %9s %7s\n", "problem", "paper",
           "lemke", "us/sample", "us/LCP", "random", "us/sample", "us/LCP", "samples/s",
           "2 thr", "2thr/1");
    for (int p = 0; p < hes_impact_problem_count(); p++) {
        const hes_impact_problem *pb = hes_impact_problem_get(p);
        hes_impact_setup s;
        hes_error msg;
        if (hes_impact_problem_setup(pb, &s, &msg) != HES_OK) {
            fprintf(stderr, "bench_impact: %s\n", msg.message);
            return 1;
        }
        /* the three runs interleaved, three times, the fastest of each kept:
           this machine's timings vary by up to 2x from run to run */
        hes_impact_set L, R, T;
        double tl = 0, tr = 0, tt = 0;
        for (int rep = 0; rep < 3; rep++) {
            if (rep) {
                hes_impact_set_free(&L);
                hes_impact_set_free(&R);
                hes_impact_set_free(&T);
            }
            if (run(pb, &s, samples, 0, 1, &L, &tl) || run(pb, &s, samples, 1, 1, &R, &tr) ||
                run(pb, &s, samples, 0, 2, &T, &tt))
                return 1;
        }
        L.seconds = tl;
        R.seconds = tr;
        T.seconds = tt;
        printf("%-20s %6.2f | %8.3f %9.1f %9.2f | %8.3f %9.1f %9.2f | %9.0f %9.0f %7.2f\n",
               pb->name, paper[p], L.mean_lcps, 1e6 * L.seconds / samples,
               1e6 * L.seconds / (L.mean_lcps * samples), R.mean_lcps,
               1e6 * R.seconds / samples, 1e6 * R.seconds / (R.mean_lcps * samples),
               samples / L.seconds, samples / T.seconds, L.seconds / T.seconds);
        hes_impact_set_free(&L);
        hes_impact_set_free(&R);
        hes_impact_set_free(&T);
        hes_impact_setup_free(&s);
    }
    printf("(lemke, random: mean LCPs per sample with each selection; samples/s on 1 and 2 "
           "threads and their ratio with Lemke's choice)\n");
    printf("\none LCP of k contacts' shape (n = 5k): Lemke against enumeration from a random "
           "start\n%8s %4s %6s %12s %14s %10s\n", "contacts", "n", "LCPs", "Lemke us",
           "enumeration us", "ratio");
    static const int reps[] = { 2000, 200, 30, 5 };
    for (int k = 1; k <= 4; k++)
        if (lcp_costs(k, reps[k - 1]))
            return 1;
    return 0;
}
