/*
 * test_noalloc.c - repeated evaluations allocate nothing: the collocation's
 * constraints, path constraints, input costs, psi and the smooth measure
 * with their gradients (what SLSQP calls in its loop), and a shape
 * context's psi with its gradient (paper Sec. III: the fast re-evaluation),
 * each run in the workspaces of its object.
 *
 * The count comes from malloc, calloc, realloc and the aligned allocators
 * defined here: a dynamically linked executable's definitions interpose
 * those of libc for every library, libhes.so and LAPACK included.  They
 * forward to the next definition (libc's) and count while `counting` is
 * set.  Under AddressSanitizer, whose runtime must own the allocator, no
 * shim is compiled, and valgrind replaces it with its own malloc: there
 * the tests skip (make check-valgrind still checks the suite's memory).
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "shaping/colloc_internal.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_SHIM 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_SHIM 1
#endif
#endif

static volatile int counting;
static volatile long allocations;

#ifndef NO_SHIM
/* Allocations before dlsym has found the real functions (dlsym itself may
 * allocate) come from a static arena and are never freed. */
static char arena[1 << 14];
static size_t arena_used;

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof arena)
        return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static int in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + sizeof arena;
}

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static int resolving;

static void resolve(void)
{
    if (real_free || resolving)
        return;
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

static void count(void)
{
    if (counting)
        allocations++;
}

void *malloc(size_t n)
{
    resolve();
    count();
    return real_malloc ? real_malloc(n) : arena_alloc(n);
}

void *calloc(size_t k, size_t n)
{
    resolve();
    count();
    if (real_calloc)
        return real_calloc(k, n);
    return n && k > (size_t)-1 / n ? NULL : arena_alloc(k * n); /* the arena is zero */
}

void *realloc(void *p, size_t n)
{
    resolve();
    count();
    if (in_arena(p)) { /* copied out of the arena (at most what is left of it) */
        size_t left = (size_t)(arena + sizeof arena - (char *)p);
        void *q = real_malloc ? real_malloc(n) : arena_alloc(n);
        if (q)
            memcpy(q, p, n < left ? n : left);
        return q;
    }
    return real_realloc(p, n);
}

void free(void *p)
{
    if (!p || in_arena(p))
        return;
    resolve();
    real_free(p);
}

int posix_memalign(void **p, size_t align, size_t n)
{
    resolve();
    count();
    return real_posix_memalign(p, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    resolve();
    count();
    return real_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n)
{
    resolve();
    count();
    return real_memalign(align, n);
}
#endif

/* 1 when the shim counts (an allocation made here is counted); 0, with a
 * note, where it cannot: under AddressSanitizer, or under valgrind, which
 * replaces every malloc, the executable's too (valgrind sets LD_PRELOAD to
 * its vgpreload libraries); the evaluations still run there.  Anywhere
 * else a shim not in use fails. */
static int shim_works(void)
{
#ifdef NO_SHIM
    fprintf(stderr, "test_noalloc: no allocation count under AddressSanitizer: skipped\n");
    return 0;
#else
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload")) {
        fprintf(stderr, "test_noalloc: valgrind replaces malloc, no allocation count\n");
        return 0;
    }
    counting = 1;
    allocations = 0;
    void *volatile p = malloc(16);
    counting = 0;
    free(p);
    ck_assert_msg(allocations == 1, "the counting malloc is not in use");
    return 1;
#endif
}

#define EVALUATIONS 10

/* The knee biped with its three torques as inputs at the nodes, a virtual
 * event in each phase and the path constraints (every part of the NLP); or
 * the SLIP hopper with a design parameter. */
static hes_colloc *make_colloc(hes_system *sys, int biped, int jobs)
{
    static const char *const inputs[] = { "hip_torque", "knee_torque", "ankle_torque" };
    int counts[2] = { 1, 1 };
    hes_colloc_options o;
    hes_colloc_options_init(&o);
    hes_colloc *c = NULL;
    o.nodes = 5;
    o.jobs = jobs;
    if (biped) {
        o.n_inputs = 3;
        o.inputs = inputs;
        o.virtual_events = counts;
        o.path = 1;
    }
    ck_assert_msg(hes_colloc_new(sys, &o, &c) == HES_OK, "%s", hes_system_errmsg(sys));
    if (!biped) {
        const char *names[] = { "K" };
        double lo = 0.0, hi = 2.0;
        ck_assert_int_eq(hes_colloc_set_design(c, 1, names, &lo, &hi), HES_OK);
    }
    return c;
}

/* One round of everything the NLP evaluates into *psi; the first failure,
 * or HES_OK.  (No ck_assert while counting: Check allocates for each.) */
static hes_status evaluate(hes_colloc *c, double *z, double *cv, double *jac, double *grad,
                           double *psi)
{
    double smooth;
    int fb;
    hes_status st;
    if ((st = hes__colloc_constraints(c, z, cv, jac)) != HES_OK ||
        (st = hes__colloc_path(c, z, cv, jac)) != HES_OK)
        return st;
    (void)hes__colloc_energy(c, z, grad);
    (void)hes__colloc_roughness(c, z, grad);
    if ((st = hes_colloc_psi(c, z, psi, grad, &fb)) != HES_OK)
        return st;
    return hes__colloc_measure(c, z, HES_MEASURE_SMOOTH, &smooth, grad, &fb);
}

START_TEST(test_collocation_evaluations_do_not_allocate)
{
    int counts = shim_works();
    for (int variant = 0; variant < 3; variant++) { /* the last: psi's gradient on 2 threads */
        int biped = variant > 0;
        hes_system *sys = test_system_of(hes_problem_find(biped ? "knee-biped" : "slip-hopper"));
        hes_colloc *c = make_colloc(sys, biped, variant == 2 ? 2 : 1);
        int nv = hes_colloc_nvars(c), nr = hes_colloc_ncons(c) + hes_colloc_nineq(c);
        double *z = malloc(sizeof(double) * (size_t)nv), *cv = malloc(sizeof(double) * (size_t)nr),
               *jac = malloc(sizeof(double) * (size_t)nr * nv),
               *grad = malloc(sizeof(double) * (size_t)nv);
        ck_assert_int_eq(hes_colloc_guess(c, z), HES_OK);
        for (int j = 0; j < nv; j++) /* inputs that differ from node to node */
            if (z[j] == 0.0)
                z[j] = 0.05 * sin(1.3 * j);
        double psi0, psi = NAN;
        hes_status st0 = evaluate(c, z, cv, jac, grad, &psi0), st = HES_OK; /* warm-up */
        ck_assert_int_eq(st0, HES_OK);
        int same = 1;
        counting = 1;
        allocations = 0;
        for (int e = 0; e < EVALUATIONS && st == HES_OK; e++) {
            st = evaluate(c, z, cv, jac, grad, &psi);
            same &= psi == psi0;
        }
        counting = 0;
        ck_assert_int_eq(st, HES_OK);
        ck_assert(same);
        ck_assert_msg(!counts || allocations == 0, "%s%s: %ld allocations in %d rounds of evaluations",
                      biped ? "knee-biped" : "slip-hopper", variant == 2 ? " (2 threads)" : "",
                      allocations, EVALUATIONS);
        free(z);
        free(cv);
        free(jac);
        free(grad);
        hes_colloc_destroy(c);
        hes_system_destroy(sys);
    }
}
END_TEST

START_TEST(test_shape_evaluations_do_not_allocate)
{
    int counts = shim_works();
    /* the SLIP hopper (autonomous: section matrix, deflation) and the
     * paddle juggler (non-autonomous), each with the gradient */
    const char *problems[] = { "slip-hopper", "paddle-juggler" };
    for (int p = 0; p < 2; p++) {
        hes_system *sys = test_system_of(hes_problem_find(problems[p]));
        hes_analysis res;
        hes_shape *sh;
        hes_shape_eval_result ev;
        ck_assert_int_eq(hes_analyze(sys, 0, &res), HES_OK);
        ck_assert_int_eq(hes_shape_new(sys, &res, 0, NULL, &sh), HES_OK);
        int n = hes_shape_count(sh);
        double h[8];
        ck_assert_int_le(n, 8);
        const hes_model *m = hes_problem_find(problems[p]);
        for (int j = 0; j < n; j++)
            ck_assert_int_eq(hes_system_get_param(sys, m->params[hes_shape_param(sh, j)].name, &h[j]),
                             HES_OK);
        ck_assert_int_eq(hes_shape_eval(sh, h, 1, &ev), HES_OK); /* warm-up */
        double psi0 = ev.psi;
        counting = 1;
        allocations = 0;
        hes_status st = HES_OK;
        for (int e = 0; e < EVALUATIONS && st == HES_OK; e++) {
            h[0] += 1e-3 * (e % 2 ? -1 : 1);
            st = hes_shape_eval(sh, h, 1, &ev);
        }
        counting = 0;
        ck_assert_int_eq(st, HES_OK);
        ck_assert_msg(!counts || allocations == 0, "%s: %ld allocations in %d shape evaluations",
                      problems[p], allocations, EVALUATIONS);
        ck_assert(isfinite(psi0) && isfinite(ev.psi));
        hes_shape_destroy(sh);
        hes_analysis_free(&res);
        hes_system_destroy(sys);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("noalloc");
    TCase *tc = tcase_create("workspaces");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_collocation_evaluations_do_not_allocate);
    tcase_add_test(tc, test_shape_evaluations_do_not_allocate);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
