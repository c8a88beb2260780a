/*
 * sweep.c - batch stability analysis over a list of parameter points
 * (hes_sweep_run_system), for a system of any kind (hes_analyze's one
 * pipeline), on N threads, each with its own copy of the system (the library
 * keeps no global state, so systems on different threads never share
 * anything mutable).  Points are handed out in order from a shared counter
 * in small blocks of consecutive indices; within a block each point starts
 * shooting from the previous point's orbit (a warm start: neighbouring
 * points of a grid or a sorted list have nearby orbits), falling back to the
 * model's guess when that fails; the warm start seeds only the free states
 * (hes_system_set_orbit_start), never what the point's parameters define.
 * A point that fails is reported with its status and message and the sweep
 * goes on.  Results go to a callback, serialised by a mutex, in index order
 * with their branch-jump flags (sweep_order.c).  Also: Latin hypercube
 * samples (hes_latin_hypercube).
 */
#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

void hes_sweep_options_init(hes_sweep_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->jobs = 1;
}

#define SWEEP_BLOCK 4

typedef struct {
    const hes_system *proto;     /* every worker's system is a copy */
    const double *base;
    const hes_sweep_options *o;
    pthread_mutex_t lock;
    int next;                    /* next point to hand out */
    int stop;
    hes_sweep_order *order;      /* rows to o->row in index order (NULL with next_block) */
} sweep_state;

/* The dimension of the orbit's section state. */
static int sys_dim(const hes_system *sys)
{
    return sys->kind == HES_KIND_ESS ? sys->ess_model->n : sys->nmax;
}

/* Analyses one point on sys; fills row.  A warm start is the previous
 * point's section state and period (warm: its dimension + 1 values). */
static void run_point(sweep_state *S, hes_system *sys, int index, double *warm, int *have_warm,
                      hes_sweep_row *row)
{
    const hes_sweep_options *o = S->o;
    int np = sys->n_params;
    assert(index >= 0 && index < o->n_points && np <= HES_SWEEP_MAX_PARAMS);
    memset(row, 0, sizeof *row);
    row->index = index;
    row->psi = row->period = NAN;
    memcpy(sys->p, S->base, sizeof(double) * (size_t)np);
    hes_status st = HES_OK;
    for (int j = 0; j < o->n_params && st == HES_OK; j++)
        st = hes_system_set_param(sys, sys->params[o->params[j]].name,
                                  o->values[(size_t)index * o->n_params + j]);
    hes_analysis res;
    int analysed = 0;
    if (st == HES_OK) {
        hes_system_set_orbit_start(sys, *have_warm ? warm : NULL);
        hes_system_set_orbit_period(sys, *have_warm ? warm[sys_dim(sys)] : NAN);
        st = hes_analyze(sys, 0, &res);
        if (st != HES_OK && *have_warm) { /* the warm start failed: the model's guess */
            hes_system_set_orbit_start(sys, NULL);
            hes_system_set_orbit_period(sys, NAN);
            st = hes_analyze(sys, 0, &res);
        }
        analysed = st == HES_OK;
    }
    if (st == HES_OK && o->optimize) {
        hes_shape_options so;
        hes_shape_options_init(&so);
        hes_shape_result sr;
        hes_analysis_free(&res);
        analysed = 0;
        st = hes_shape_optimize(sys, &so, &sr);
        if (st == HES_OK && (st = hes_shape_result_apply(sys, &sr)) == HES_OK) {
            hes_system_set_orbit_start(sys, NULL);
            st = hes_analyze(sys, 0, &res); /* at the optimum */
            analysed = st == HES_OK;
        }
        hes_shape_result_free(&sr);
    }
    row->status = st;
    if (!analysed) {
        snprintf(row->message, sizeof row->message, "%s: %s", hes_strerror(st), hes_system_errmsg(sys));
        *have_warm = 0;
        return;
    }
    row->psi = res.stab.psi;
    row->stable = res.stab.stable;
    row->verdict = res.stab.verdict;
    row->period = res.orbit.period;
    row->n_mult = res.stab.n_mult < HES_SWEEP_MAX_MULT ? res.stab.n_mult : HES_SWEEP_MAX_MULT;
    for (int k = 0; k < row->n_mult; k++) {
        row->re[k] = res.stab.re[k];
        row->im[k] = res.stab.im[k];
    }
    row->n_values = np < HES_SWEEP_MAX_PARAMS ? np : HES_SWEEP_MAX_PARAMS;
    memcpy(row->values, sys->p, sizeof(double) * (size_t)row->n_values);
    row->n_x0 = res.orbit.n < HES_SWEEP_MAX_STATE ? res.orbit.n : HES_SWEEP_MAX_STATE;
    memcpy(row->x0, res.orbit.x0, sizeof(double) * (size_t)row->n_x0);
    memcpy(warm, res.orbit.x0, sizeof(double) * (size_t)res.orbit.n);
    warm[sys_dim(sys)] = res.orbit.period;
    *have_warm = 1;
    hes_analysis_free(&res);
}

static void *worker(void *arg)
{
    sweep_state *S = arg;
    const hes_sweep_options *o = S->o;
    hes_system *sys = hes__system_copy(S->proto);
    double *warm = sys ? malloc(sizeof(double) * (size_t)(sys_dim(sys) + 1)) : NULL;
    hes_sweep_row row;
    if (sys && o->settings && hes_system_set_settings(sys, o->settings) != HES_OK) {
        hes_system_destroy(sys); /* refused before the threads start */
        sys = NULL;
    }
    if (!sys || !warm) {
        free(warm);
        hes_system_destroy(sys);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&S->lock);
        int first, stop = S->stop;
        if (o->next_block) {
            first = stop ? o->n_points : o->next_block(o->ctx, SWEEP_BLOCK);
        } else {
            first = S->next;
            S->next += SWEEP_BLOCK;
        }
        pthread_mutex_unlock(&S->lock);
        if (stop || first >= o->n_points)
            break;
        int have_warm = 0, last = first + SWEEP_BLOCK < o->n_points ? first + SWEEP_BLOCK : o->n_points;
        for (int i = first; i < last; i++) {
            if (o->skip && o->skip[i]) {
                have_warm = 0;
                continue;
            }
            run_point(S, sys, i, warm, &have_warm, &row);
            pthread_mutex_lock(&S->lock);
            if (S->order ? hes_sweep_order_put(S->order, &row, o->row, o->ctx) != 0
                         : o->row && o->row(o->ctx, &row) != 0)
                S->stop = 1;
            stop = S->stop;
            pthread_mutex_unlock(&S->lock);
            if (stop) /* a row could not be written: not one point more */
                break;
        }
    }
    free(warm);
    hes_system_destroy(sys);
    return NULL;
}

#define SWEEP_FAIL(st, ...) \
    do { if (msg && len) snprintf(msg, len, __VA_ARGS__); return (st); } while (0)

hes_status hes_sweep_run(const hes_model *model, const double *params, const hes_sweep_options *o,
                         hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (msg && len)
        msg[0] = '\0';
    if (!model || !o)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: no model or no options");
    if (model->n_params > HES_SWEEP_MAX_PARAMS)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: model '%s' has %d parameters, more than a row "
                   "holds (%d)", model->name, model->n_params, HES_SWEEP_MAX_PARAMS);
    /* a worker without a system computes nothing: an invalid model would
     * otherwise be a sweep that succeeds with no rows */
    hes_system *proto;
    hes_status st = hes_system_new(model, &proto, err);
    if (st != HES_OK)
        return st;
    if (params)
        memcpy(proto->p, params, sizeof(double) * (size_t)model->n_params);
    st = hes_sweep_run_system(proto, o, err);
    hes_system_destroy(proto);
    return st;
}

hes_status hes_sweep_run_system(const hes_system *proto, const hes_sweep_options *o, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    char why[512];
    if (msg && len)
        msg[0] = '\0';
    if (!proto || !o)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: no system or no options");
    if (o->n_points < 0 || o->n_params < 0 || (o->n_points > 0 && !o->values) ||
        (o->n_params > 0 && !o->params))
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: %d points of %d parameters, values %s, "
                   "parameter indices %s", o->n_points, o->n_params, o->values ? "given" : "NULL",
                   o->params ? "given" : "NULL");
    if (o->jobs < 1 || o->jobs > 1024)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: jobs = %d, not from 1 to 1024", o->jobs);
    if (proto->n_params > HES_SWEEP_MAX_PARAMS)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: model '%s' has %d parameters, more than a row "
                   "holds (%d)", proto->name, proto->n_params, HES_SWEEP_MAX_PARAMS);
    if (o->optimize && proto->kind != HES_KIND_HYBRID)
        SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: optimize needs shape parameters, which enter "
                   "the saltation matrices of an event-driven hybrid model; '%s' is an "
                   "event-selected system", proto->name);
    for (int j = 0; j < o->n_params; j++)
        if (o->params[j] < 0 || o->params[j] >= proto->n_params)
            SWEEP_FAIL(HES_EINVAL, "hes_sweep_run: swept parameter %d has index %d, not one of "
                       "the model's %d", j, o->params[j], proto->n_params);
    hes_system *probe = hes__system_copy(proto);
    hes_status st = probe ? HES_OK : HES_ENOMEM;
    if (probe && o->settings) /* refused here, with the reason, rather than by each worker */
        st = hes_system_set_settings(probe, o->settings);
    if (st != HES_OK)
        snprintf(why, sizeof why, "%s", probe ? hes_system_errmsg(probe) : "out of memory");
    hes_system_destroy(probe);
    if (st != HES_OK)
        SWEEP_FAIL(st, "hes_sweep_run: %s", why);
    sweep_state S = { proto, proto->p, o, PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL };
    if (!o->next_block &&
        !(S.order = hes_sweep_order_new(o->n_points, o->n_params, o->values, o->skip,
                                        o->n_strides, o->strides)))
        SWEEP_FAIL(HES_ENOMEM, "out of memory (or bad strides)");
    if (o->jobs == 1) {
        worker(&S);
    } else {
        pthread_t *t = malloc(sizeof *t * (size_t)o->jobs);
        int started = 0;
        if (!t)
            SWEEP_FAIL(HES_ENOMEM, "out of memory");
        for (int k = 0; k < o->jobs; k++)
            started += pthread_create(&t[started], NULL, worker, &S) == 0;
        if (started == 0)
            worker(&S);
        for (int k = 0; k < started; k++)
            pthread_join(t[k], NULL);
        free(t);
    }
    pthread_mutex_destroy(&S.lock);
    hes_sweep_order_destroy(S.order);
    if (S.stop)
        SWEEP_FAIL(HES_EINVAL, "the sweep was stopped by its callback");
    return HES_OK;
}

hes_status hes_latin_hypercube(int n, int dim, const double *lo, const double *hi,
                               unsigned long seed, double *out)
{
    if (n < 1 || dim < 1 || !lo || !hi || !out)
        return HES_EINVAL;
    int *perm = malloc(sizeof(int) * (size_t)n);
    unsigned long long s = seed;
    if (!perm)
        return HES_ENOMEM;
    for (int j = 0; j < dim; j++) {
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int k = (int)(hes__rng_uniform(&s) * (i + 1));
            int tmp = perm[i];
            perm[i] = perm[k];
            perm[k] = tmp;
        }
        for (int i = 0; i < n; i++) /* one point in each of the n strata */
            out[(size_t)i * dim + j] = lo[j] + (hi[j] - lo[j]) * (perm[i] + hes__rng_uniform(&s)) / n;
    }
    free(perm);
    return HES_OK;
}
