/*
 * bench_continuation.c - following a branch against a grid of analyses
 * (run by `make bench`): for the SLIP hopper in its Raibert gain K from 0
 * to 0.6 and the knee biped in its slope from 0.04 to 0.115, in one run,
 *
 *   continuation  hes_continue over the range with the default options: its
 *                 points (ordinary and located) and the values where psi
 *                 crosses 1 (hes_continuation_point.crossing);
 *   grid, guess   hes_analyze at N equally spaced values over the same
 *                 range, N the continuation's points (the same resolution),
 *                 each from the model's guess;
 *   grid, sweep   the same N values by hes_sweep_run_system on one thread
 *                 (hes sweep: each point warm-started from the previous
 *                 one's orbit).
 *
 * A grid locates a stability boundary between two neighbouring values whose
 * verdicts differ (stable, or not: unstable or marginal): their midpoint,
 * to within half the spacing.  Every boundary is also located by bisection
 * of the sign of psi - 1 (not of the verdict, which is marginal within
 * psi's accuracy of the boundary), each psi a fresh hes_analyze from the
 * model's guess, to 1e-12 (the reference, independent of the three
 * methods), from the grid's
 * bracket (or, for a crossing no grid brackets, the crossing +- the
 * spacing); each located value's error is its distance to the reference.
 * A grid point whose period is not the continuation's branch's there (its
 * period interpolated between the branch's points, to 1e-3 relative) is
 * counted as off the branch (another gait).
 *
 * The methods are timed in turn within each round (continuation, grid from
 * the guess, sweep; each repeated until it has run 0.2 s, the time per
 * run the mean), over BENCH_ROUNDS rounds (default 5); the table has the
 * median time per run, points per second and the ratio: the continuation's
 * points per second over the row's.
 *
 *   make bench   (or BENCH_ROUNDS=3 tests/bench/bench_continuation)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hes.h"

#include "bench_util.h"

#define ROUNDS 5          /* timing rounds (BENCH_ROUNDS) */
#define MIN_SECONDS 0.2   /* each measurement repeats its method this long */
#define REF_TOL 1e-12     /* the reference bisection's bracket */
#define MAX_B 8           /* boundaries kept per method */
#define MAX_N 1000        /* grid points */

enum { CONT, GUESS, SWEEP, N_METHODS };
static const char *method_name[N_METHODS] = { "continuation", "grid, model's guess",
                                              "grid, hes_sweep (1 thread, warm)" };

typedef struct {
    const char *model, *param;
    double from, to;
} bench_case;

/* one grid point's outcome */
typedef struct {
    double value, psi, period;
    int ok, stable;
} grid_point;

/* what a method located: boundaries and, for a grid, its points */
typedef struct {
    int points, failed, off_branch;
    int n_b;
    double b[MAX_B];      /* located values (a grid: the bracket's midpoint) */
    double half[MAX_B];   /* a grid: half the bracket */
    const char *kind[MAX_B];
    grid_point g[MAX_N];
} located;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}


/* the grid's value i of n over [from, to] */
static double grid_value(const bench_case *c, int i, int n)
{
    return i == n - 1 ? c->to : c->from + (c->to - c->from) * i / (n - 1);
}

/* psi of a fresh analysis at param = v from the model's guess (NaN: no
   orbit), its period and whether its verdict is stable */
static double fresh_psi(hes_system *sys, const char *param, double v, double *period,
                        int *stable)
{
    hes_analysis a;
    if (hes_system_set_param(sys, param, v) != HES_OK ||
        hes_system_set_orbit_start(sys, NULL) != HES_OK || hes_analyze(sys, 0, &a) != HES_OK)
        return NAN;
    double psi = a.stab.psi;
    if (period)
        *period = a.orbit.period;
    if (stable)
        *stable = a.stab.verdict == HES_STABLE;
    hes_analysis_free(&a);
    return psi;
}

/* continuation: the branch into *br (the caller frees it) */
static int run_continuation(hes_system *sys, const bench_case *c, hes_continuation *br)
{
    hes_continuation_options o;
    hes_continuation_options_init(&o);
    hes_error err;
    if (hes_continue(sys, c->param, c->from, c->to, &o, br, &err) != HES_OK) {
        fprintf(stderr, "bench_continuation: %s: %s\n", c->model, err.message);
        return 1;
    }
    return 0;
}

/* the grid from the model's guess at every point */
static void run_grid_guess(hes_system *sys, const bench_case *c, int n, grid_point *g)
{
    double saved;
    hes_system_get_param(sys, c->param, &saved);
    for (int i = 0; i < n; i++) {
        g[i].value = grid_value(c, i, n);
        g[i].stable = 0;
        g[i].psi = fresh_psi(sys, c->param, g[i].value, &g[i].period, &g[i].stable);
        g[i].ok = !isnan(g[i].psi);
    }
    hes_system_set_param(sys, c->param, saved);
    hes_system_set_orbit_start(sys, NULL);
}

static int sweep_row(void *ctx, const hes_sweep_row *row)
{
    grid_point *g = ctx;
    g[row->index].ok = row->status == HES_OK;
    g[row->index].psi = row->psi;
    g[row->index].period = row->period;
    g[row->index].stable = row->status == HES_OK && row->verdict == HES_STABLE;
    return 0;
}

/* the grid by hes_sweep_run_system on one thread */
static int run_grid_sweep(hes_system *sys, const bench_case *c, int n, grid_point *g)
{
    static double values[MAX_N];
    int k = -1;
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, c->param) == 0)
            k = i;
    for (int i = 0; i < n; i++)
        g[i].value = values[i] = grid_value(c, i, n);
    hes_sweep_options o;
    hes_sweep_options_init(&o);
    o.n_params = 1;
    o.params = &k;
    o.n_points = n;
    o.values = values;
    o.jobs = 1;
    o.row = sweep_row;
    o.ctx = g;
    hes_error err;
    if (hes_sweep_run_system(sys, &o, &err) != HES_OK) {
        fprintf(stderr, "bench_continuation: %s: sweep: %s\n", c->model, err.message);
        return 1;
    }
    return 0;
}

/* seconds per run of method m (the mean over repetitions for MIN_SECONDS);
   the last run's results into *br or L->g */
static double timed(int m, hes_system *sys, const bench_case *c, int n, hes_continuation *br,
                    located *L)
{
    int reps = 0;
    double t0 = now(), t;
    do {
        if (m == CONT) {
            hes_continuation_free(br);
            if (run_continuation(sys, c, br))
                exit(1);
        } else if (m == GUESS) {
            run_grid_guess(sys, c, n, L->g);
        } else if (run_grid_sweep(sys, c, n, L->g)) {
            exit(1);
        }
        reps++;
    } while ((t = now() - t0) < MIN_SECONDS);
    return t / reps;
}

/* period of the branch at value v, interpolated between its points (NaN:
   v outside) */
static double branch_period(const hes_continuation *br, double v)
{
    double best = NAN;
    for (int i = 0; i + 1 < br->n_points; i++) {
        const hes_continuation_point *a = &br->points[i], *b = &br->points[i + 1];
        double lo = fmin(a->value, b->value), hi = fmax(a->value, b->value);
        if (v < lo || v > hi)
            continue;
        double p = hi > lo ? a->period + (b->period - a->period) * (v - a->value) /
                                             (b->value - a->value)
                           : a->period;
        if (isnan(best))
            best = p;
    }
    return best;
}

/* a grid's boundaries: neighbouring successful points of different verdicts */
static void grid_boundaries(located *L, int n, const hes_continuation *br)
{
    L->points = n;
    L->failed = L->off_branch = L->n_b = 0;
    int last = -1;
    for (int i = 0; i < n; i++) {
        if (!L->g[i].ok) {
            L->failed++;
            continue;
        }
        double p = branch_period(br, L->g[i].value);
        if (!isnan(p) && fabs(L->g[i].period - p) > 1e-3 * fabs(p))
            L->off_branch++;
        if (last >= 0 && L->g[last].stable != L->g[i].stable && L->n_b < MAX_B) {
            L->b[L->n_b] = 0.5 * (L->g[last].value + L->g[i].value);
            L->half[L->n_b] = 0.5 * fabs(L->g[i].value - L->g[last].value);
            L->kind[L->n_b] = "";
            L->n_b++;
        }
        last = i;
    }
}

/* the reference: bisection of sign(psi - 1) in [a, b], fresh analyses;
   NaN when the signs at the ends agree or an analysis fails */
static double reference(hes_system *sys, const char *param, double a, double b)
{
    double saved;
    hes_system_get_param(sys, param, &saved);
    double fa = fresh_psi(sys, param, a, NULL, NULL) - 1,
           fb = fresh_psi(sys, param, b, NULL, NULL) - 1;
    double r = NAN;
    if (fa * fb < 0) {
        while (fabs(b - a) > REF_TOL) {
            double m = 0.5 * (a + b), fm = fresh_psi(sys, param, m, NULL, NULL) - 1;
            if (isnan(fm))
                break;
            if ((fm < 0) == (fa < 0))
                a = m, fa = fm;
            else
                b = m;
        }
        if (fabs(b - a) <= REF_TOL)
            r = 0.5 * (a + b);
    }
    hes_system_set_param(sys, param, saved);
    hes_system_set_orbit_start(sys, NULL);
    return r;
}

/* the reference nearest to v */
static double nearest(const double *ref, int n_ref, double v)
{
    double best = NAN;
    for (int i = 0; i < n_ref; i++)
        if (isnan(best) || fabs(ref[i] - v) < fabs(best - v))
            best = ref[i];
    return best;
}

static void print_row(const bench_case *c, int m, const located *L, double sec, double ratio,
                      const double *ref, int n_ref)
{
    char bnd[512] = "", err[256] = "";
    size_t lb = 0, le = 0;
    for (int i = 0; i < L->n_b; i++) {
        const char *sep = i ? ", " : "";
        if (m == CONT)
            lb += (size_t)snprintf(bnd + lb, sizeof bnd - lb, "%s%.10f (%s)", sep, L->b[i],
                                   L->kind[i]);
        else
            lb += (size_t)snprintf(bnd + lb, sizeof bnd - lb, "%s%.4f ± %.4f", sep, L->b[i],
                                   L->half[i]);
        le += (size_t)snprintf(err + le, sizeof err - le, "%s%.1e", sep,
                               fabs(L->b[i] - nearest(ref, n_ref, L->b[i])));
        if (lb >= sizeof bnd || le >= sizeof err)
            break;
    }
    char fail[32] = "";
    if (m != CONT)
        snprintf(fail, sizeof fail, "%d / %d", L->failed, L->off_branch);
    printf("| %s, %s = %g:%g | %s | %d | %s | %.3g | %.0f | %.2f | %s | %s |\n", c->model,
           c->param, c->from, c->to, method_name[m], L->points, fail, sec, L->points / sec, ratio,
           L->n_b ? bnd : "none", L->n_b ? err : "");
}

static int bench(const bench_case *c, int rounds)
{
    hes_system *sys;
    hes_error e;
    const hes_model *model = hes_problem_find(c->model);
    if (!model || hes_system_new(model, &sys, &e) != HES_OK) {
        fprintf(stderr, "bench_continuation: no model %s\n", c->model);
        return 1;
    }
    static located L[N_METHODS];
    hes_continuation br;
    memset(&br, 0, sizeof br);
    double t[N_METHODS][64];
    /* the continuation fixes the grids' number of points */
    if (run_continuation(sys, c, &br))
        return 1;
    int n = br.n_points;
    if (n > MAX_N) {
        fprintf(stderr, "bench_continuation: %d points\n", n);
        return 1;
    }
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < N_METHODS; m++)
            t[m][r] = timed(m, sys, c, n, &br, &L[m]);
    /* what each located */
    L[CONT].points = n;
    L[CONT].n_b = 0;
    for (int i = 0; i < n; i++)
        if (br.points[i].crossing != HES_CROSS_NONE && L[CONT].n_b < MAX_B) {
            L[CONT].b[L[CONT].n_b] = br.points[i].value;
            L[CONT].kind[L[CONT].n_b] = hes_label_name(br.points[i].label);
            L[CONT].n_b++;
        }
    grid_boundaries(&L[GUESS], n, &br);
    grid_boundaries(&L[SWEEP], n, &br);
    /* the references: from each bracket of the grid from the guess, and
       around each crossing no bracket holds */
    double ref[2 * MAX_B], spacing = fabs(c->to - c->from) / (n - 1);
    int n_ref = 0;
    for (int i = 0; i < L[GUESS].n_b; i++) {
        double r = reference(sys, c->param, L[GUESS].b[i] - L[GUESS].half[i],
                             L[GUESS].b[i] + L[GUESS].half[i]);
        if (!isnan(r))
            ref[n_ref++] = r;
    }
    for (int i = 0; i < L[CONT].n_b; i++) {
        double v = L[CONT].b[i];
        if (!isnan(nearest(ref, n_ref, v)) && fabs(nearest(ref, n_ref, v) - v) < spacing)
            continue;
        double lo = fmax(fmin(c->from, c->to), v - spacing),
               hi = fmin(fmax(c->from, c->to), v + spacing);
        double r = reference(sys, c->param, lo, hi);
        if (!isnan(r))
            ref[n_ref++] = r;
        else
            printf("(no reference near the crossing at %.10f: psi - 1 does not change sign "
                   "between %.6g and %.6g)\n", v, lo, hi);
    }
    qsort(ref, (size_t)n_ref, sizeof *ref, bench_cmp_double);
    double sec[N_METHODS];
    for (int m = 0; m < N_METHODS; m++)
        sec[m] = bench_median(t[m], rounds);
    for (int m = 0; m < N_METHODS; m++)
        print_row(c, m, &L[m], sec[m], (n / sec[CONT]) / (L[m].points / sec[m]), ref, n_ref);
    printf("| %s | reference: bisection of psi - 1, fresh analyses, to 1e-12 | | | | | | ",
           c->model);
    for (int i = 0; i < n_ref; i++)
        printf("%s%.12f", i ? ", " : "", ref[i]);
    printf(" | |\n");
    if (!br.reached)
        printf("(the branch ended before %g: %s)\n", c->to, br.why);
    hes_continuation_free(&br);
    hes_system_destroy(sys);
    return 0;
}

int main(void)
{
    static const bench_case cases[] = {
        { "slip-hopper", "K", 0.0, 0.6 },
        { "knee-biped", "slope", 0.04, 0.115 },
    };
    int rounds = ROUNDS;
    const char *rs = getenv("BENCH_ROUNDS");
    if (rs && (rounds = atoi(rs)) < 1) {
        fprintf(stderr, "bench_continuation: BENCH_ROUNDS is a positive number\n");
        return 1;
    }
    if (rounds > 64)
        rounds = 64;
    printf("bench_continuation: %ld cores online; a branch by hes_continue (default options) "
           "against grids of as many points; %d rounds, the methods in turn, each repeated "
           "for %g s; median seconds per run\n", sysconf(_SC_NPROCESSORS_ONLN), rounds,
           MIN_SECONDS);
    printf("| model, range | method | points | failed / off the branch | seconds | points/s | "
           "ratio | stability boundaries | error vs reference |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (bench(&cases[i], rounds))
            return 1;
    return 0;
}
