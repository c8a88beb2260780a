/*
 * bench_shape.c - what the analytic gradient of psi buys (run by `make
 * bench`, not by `make check`).  All timings come from this one run on this
 * machine and are reported as ratios to a baseline of the same run.
 *
 * Part 1, per problem (juggler: 1 shape parameter, SLIP: 2, Hopf oscillator
 * with 20 virtual events: 20): the cost of one gradient divided by the cost
 * of one psi (psi, the gradient and the fast differences timed in turn, each
 * the least of 10 batch means), for
 *   - the analytic gradient (eigenvalue perturbation over the stored factors),
 *   - central differences of psi re-evaluated over the stored factors
 *     (2 m fast evaluations),
 *   - central differences of psi where every psi is a full re-analysis
 *     (orbit, simulation, monodromy: what a user without hes would do),
 * with the cost of one fast psi as the unit.
 * Part 2: evaluations and wall time of hes_shape_optimize from one unstable
 * start, without the polish, with analytic gradients, with finite-difference
 * gradients (same algorithm, LD_SLSQP) and derivative-free (LN_BOBYQA), each
 * asked to reach the psi of the analytic run (stopval).  "search" is the time
 * from the first to the last evaluation (the progress callback), "total"
 * adds the two full analyses every run does (before and at the optimum).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hes.h"
#include "testmodels.h"

/* A system of model m, or NULL (an invalid model, no memory). */
static hes_system *test_system_of(const hes_model *m)
{
    hes_system *sys;
    return hes_system_new(m, &sys, NULL) == HES_OK ? sys : NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    const char *label;
    const hes_model *model;
    int n_set;
    const char *set_names[4];
    double set_values[4];
} problem;

static hes_system *setup(const problem *pb)
{
    hes_system *sys = test_system_of(pb->model);
    if (!sys)
        exit(1);
    for (int i = 0; i < pb->n_set; i++)
        if (hes_system_set_param(sys, pb->set_names[i], pb->set_values[i]) != HES_OK) {
            fprintf(stderr, "bench: %s\n", hes_system_errmsg(sys));
            exit(1);
        }
    return sys;
}

/* Seconds per call of fn, repeated for at least `budget` seconds. */
typedef void (*op_fn)(void *ctx);
static double per_call(op_fn fn, void *ctx, double budget)
{
    int reps = 0;
    double t0 = now(), t;
    do {
        fn(ctx);
        reps++;
        t = now();
    } while (t - t0 < budget || reps < 3);
    return (t - t0) / reps;
}

/* Seconds per call of each of the n ops, for the ratios between them: 10
 * rounds of a batch of each (budget / 10 seconds), in turn, and for each
 * op the least of its batch means (the machine's interference only adds
 * time, and in turn a drift falls on all alike; one long run of each
 * after the other moved the gradient's ratio between 1.3 and 1.5). */
#define ROUNDS 10
static void per_call_interleaved(const op_fn *fn, int n, void *ctx, double budget, double *t)
{
    for (int k = 0; k < n; k++)
        t[k] = HUGE_VAL;
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < n; k++)
            t[k] = fmin(t[k], per_call(fn[k], ctx, budget / ROUNDS));
}

typedef struct {
    hes_shape *sh;
    const problem *pb;
    int m;
    double *h, *w;
} ctx_t;

static void check(hes_status st, const char *what)
{
    if (st != HES_OK) {
        fprintf(stderr, "bench: %s failed: %s\n", what, hes_strerror(st));
        exit(1);
    }
}

static void op_psi(void *p)
{
    ctx_t *c = p;
    hes_shape_eval_result ev;
    check(hes_shape_eval(c->sh, c->h, 0, &ev), "psi");
}

static void op_grad(void *p)
{
    ctx_t *c = p;
    hes_shape_eval_result ev;
    check(hes_shape_eval(c->sh, c->h, HES_SHAPE_GRAD_PSI, &ev), "gradient");
}

static void op_fd_fast(void *p)
{
    ctx_t *c = p;
    hes_shape_eval_result ev;
    for (int j = 0; j < c->m; j++)
        for (int s = -1; s <= 1; s += 2) {
            memcpy(c->w, c->h, sizeof(double) * (size_t)c->m);
            c->w[j] += s * 1e-6 * fmax(1.0, fabs(c->h[j]));
            check(hes_shape_eval(c->sh, c->w, 0, &ev), "psi");
        }
    check(hes_shape_eval(c->sh, c->h, 0, &ev), "psi"); /* back to h */
}

static double full_psi(ctx_t *c, const double *h)
{
    hes_system *sys = setup(c->pb);
    for (int j = 0; j < c->m; j++)
        hes_system_set_param(sys, hes_system_model(sys)->params[hes_shape_param(c->sh, j)].name, h[j]);
    hes_analysis res;
    check(hes_analyze(sys, 0, &res), "analysis");
    double psi = res.stab.psi;
    hes_analysis_free(&res);
    hes_system_destroy(sys);
    return psi;
}

static void op_full(void *p)
{
    ctx_t *c = p;
    (void)full_psi(c, c->h);
}

static void op_fd_full(void *p)
{
    ctx_t *c = p;
    for (int j = 0; j < c->m; j++)
        for (int s = -1; s <= 1; s += 2) {
            memcpy(c->w, c->h, sizeof(double) * (size_t)c->m);
            c->w[j] += s * 1e-6 * fmax(1.0, fabs(c->h[j]));
            (void)full_psi(c, c->w);
        }
}

static void gradient_costs(const problem *pb)
{
    hes_system *sys = setup(pb);
    hes_analysis res;
    check(hes_analyze(sys, 0, &res), "analysis");
    ctx_t c = { NULL, pb, 0, NULL, NULL };
    check(hes_shape_new(sys, &res, 0, NULL, &c.sh), "shape context");
    c.m = hes_shape_count(c.sh);
    c.h = malloc(sizeof(double) * (size_t)c.m);
    c.w = malloc(sizeof(double) * (size_t)c.m);
    for (int j = 0; j < c.m; j++)
        c.h[j] = hes_system_params(sys)[hes_shape_param(c.sh, j)];
    const op_fn fast[3] = { op_psi, op_grad, op_fd_fast };
    double t[3];
    per_call_interleaved(fast, 3, &c, 0.6, t);
    double t_psi = t[0], t_grad = t[1], t_fd = t[2];
    double t_full = per_call(op_full, &c, 0.3);
    double t_fd_full = per_call(op_fd_full, &c, 0.5);
    printf("%-14s %3d %11.2e %10.2f %10.1f %10.1f %12.1f %9.1f\n", pb->label, c.m, t_psi,
           t_grad / t_psi, t_fd / t_psi, t_full / t_psi, t_fd_full / t_psi, t_fd / t_grad);
    free(c.h);
    free(c.w);
    hes_shape_destroy(c.sh);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}

typedef struct { double first, last; } clock_span;

static void on_progress(int evaluations, double best, void *data)
{
    clock_span *s = data;
    (void)best;
    (void)evaluations;
    s->last = now();
    if (s->first == 0)
        s->first = s->last;
}

static void optimisation_costs(const problem *pb, const double *start)
{
    const char *labels[] = { "analytic LD_SLSQP", "FD LD_SLSQP", "LN_BOBYQA" };
    const char *alg[] = { "LD_SLSQP", "LD_SLSQP", "LN_BOBYQA" };
    const int grad[] = { 1, 0, 1 };
    double target = 0, t_ref = 0;
    for (int k = 0; k < 3; k++) {
        hes_system *sys = setup(pb);
        hes_shape_options o;
        hes_shape_options_init(&o);
        o.starts = 1;
        o.polish = 0;
        o.algorithm = alg[k];
        o.gradient = grad[k];
        o.maxeval = 20000;
        o.start = start;
        clock_span span = { 0, 0 };
        o.progress = on_progress;
        o.progress_data = &span;
        if (k > 0)
            o.stopval = target;
        hes_shape_result r;
        double t0 = now();
        check(hes_shape_optimize(sys, &o, &r), "optimisation");
        double t = now() - t0, search = span.last - span.first;
        if (k == 0) {
            target = r.measure * (1 + 1e-5); /* "the same psi": to 1e-5 relative */
            t_ref = search;
        }
        printf("%-14s %-18s %7d %7d %10.4f %9.2f %9.4f %13.9f %s\n", pb->label, labels[k],
               r.evaluations, r.gradients, search, search / t_ref, t, r.measure,
               k == 0 || r.measure <= target ? "" : "(target not reached)");
        hes_shape_result_free(&r);
        hes_system_destroy(sys);
    }
}

int main(void)
{
    const problem problems[] = {
        { "paddle-juggler", hes_problem_find("paddle-juggler"), 1, { "paddle_accel" }, { 2.0 } },
        { "slip-hopper", hes_problem_find("slip-hopper"), 2, { "K", "thetadot" }, { 0.05, -0.3 } },
        { "hopf-20-events", &test_hopf_kicks, 0, { NULL }, { 0 } },
    };
    printf("Part 1: cost of one gradient of psi, in units of one psi re-evaluated over the\n"
           "stored factors (fast psi); FD = central differences, 2 m evaluations of psi\n\n");
    printf("%-14s %3s %11s %10s %10s %10s %12s %9s\n", "problem", "m", "fast psi/s",
           "analytic", "FD fast", "full psi", "FD full", "FD/anal.");
    for (int i = 0; i < 3; i++)
        gradient_costs(&problems[i]);
    printf("\nPart 2: hes_shape_optimize from an unstable start (juggler paddle_accel = 5,\n"
           "SLIP K = thetadot = 0, Hopf h_k = 0.4), one start, no polish; the FD and\n"
           "derivative-free runs stop at the analytic run's psi (+1e-5 relative)\n\n");
    printf("%-14s %-18s %7s %7s %10s %9s %9s %13s\n", "problem", "method", "evals", "grads",
           "search s", "/analytic", "total s", "psi reached");
    double starts[3][20] = { { 5.0 }, { 0.0, 0.0 }, { 0 } };
    for (int k = 0; k < 20; k++)
        starts[2][k] = 0.4;
    for (int i = 0; i < 3; i++)
        optimisation_costs(&problems[i], starts[i]);
    return 0;
}
