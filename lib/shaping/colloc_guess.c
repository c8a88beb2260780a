/*
 * colloc_guess.c - the decision vector z of the collocation from a
 * simulation or a gait, and back to a gait.
 *
 * hes_colloc_guess simulates one period of the model's orbit guess (the
 * event sequence only) and samples each physical phase at the nodes of its
 * sub-phases; hes_colloc_from_gait does the same with a simulation of a
 * gait's derived model (lib/shaping/gait.c), so a gait re-collocated on
 * another grid starts on the same orbit.  A physical phase of duration T
 * split by v virtual events gets sub-phase durations (split_phase)
 *
 *   tau_0 = t_turn + w,  tau_1 .. tau_v = w,   w = (T - t_turn) / (v + 1),
 *
 * t_turn the last of 40 samples where the guard moved against the event's
 * direction (Dxg F dir <= 0), and the offsets p = -g at the sub-phase ends,
 * so the virtual events are crossed the way of the physical event whose
 * guard they shift.  hes_colloc_gait writes z as a gait (phases, nodes,
 * inputs, offsets, the direction a virtual guard is crossed), and
 * hes__colloc_perturb moves a start's free variables for another start.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/colloc_internal.h"

/* Samples a physical phase at time tau since its start: state x, inputs u. */
typedef hes_status (*phase_sampler)(void *ctx, double tau, int sub, int node, double *x,
                                    double *u);

/* Fills the sub-phases of physical phase j of z from a sampler, with the
 * given sub-phase durations; the virtual offsets from the guard at the
 * sub-phase ends (model time tm0 at the start of the physical phase). */
static hes_status fill_phase(hes_colloc *c, double *z, int j, const double *dur, double tm0,
                             phase_sampler fn, void *ctx)
{
    hes_system *sys = c->sys;
    int first = 0;
    assert(j >= 0 && j < c->n_phys);
    while (c->phys[first] != j)
        first++;
    double tau0 = 0;
    hes_status st = HES_OK;
    for (int i = first; i < c->n_phases && c->phys[i] == j && st == HES_OK; i++) {
        int n = c->dim[i], N = c->nn[i];
        double *u = c->work + (size_t)c->work_len - (size_t)c->n_in - 1;
        z[c->toff[i]] = dur[i - first];
        for (int k = 0; k < N && st == HES_OK; k++) {
            double tau = tau0 + dur[i - first] * k / (N - 1);
            st = fn(ctx, tau, i - first, k, z + c->xoff[i] + (size_t)k * n, u);
            if (c->urows[i] == N || (c->urows[i] == 1 && k == 0))
                memcpy(z + c->uoff[i] + (size_t)k * c->n_in, u, sizeof(double) * (size_t)c->n_in);
        }
        tau0 += dur[i - first];
        if (st == HES_OK && c->virt[i]) {
            double g;
            hes__colloc_set_inputs(c, z, i, N - 1, 0);
            st = hes__guard(sys, c->tr[i], tm0 + tau0, z + c->xoff[i] + (size_t)(N - 1) * n, &g);
            z[c->voff[i]] = -g;
        }
    }
    return st;
}

typedef struct {
    hes_colloc *c;
    const hes_phase *ph;
} sim_sampler;

static hes_status sample_simulation(void *ctx, double tau, int sub, int node, double *x, double *u)
{
    sim_sampler *s = ctx;
    (void)sub; (void)node;
    hes_system *sys = s->c->sys;
    for (int q = 0; q < s->c->n_in; q++)
        u[q] = sys->p[s->c->in_idx[q]];
    return hes_variational(sys, s->ph->mode, s->ph->tm0, tau, s->ph->x0, x, NULL);
}

/* Sub-phase durations for physical phase j of duration T (model time tm0
 * at its start).  Virtual events are crossed in the direction of the
 * physical event whose guard they shift (a shifted copy of the event
 * surface, approached the same way; an event placed where the guard turns
 * could be missed by a perturbed step), so they go where the guard already
 * moves that way: equally spaced over the final stretch of the phase after
 * the last time the guard moved the other way. */
static void split_phase(hes_colloc *c, int j, double T, double tm0, phase_sampler fn, void *ctx,
                        double *dur)
{
    hes_system *sys = c->sys;
    int first = 0, count = 0, nm = sys->nmax, dir = sys->model->transitions[c->tr[0]].direction;
    while (c->phys[first] != j)
        first++;
    for (int i = first; i < c->n_phases && c->phys[i] == j; i++)
        count++;
    dir = sys->model->transitions[c->tr[first]].direction;
    double *x = malloc(sizeof(double) * (size_t)(3 * nm + c->n_in + 1)), t_turn = 0;
    double *F = x + nm, *gx = F + nm, *u = gx + nm;
    for (int q = 0; x && count > 1 && dir != HES_ANY && q <= 40; q++) {
        double t = T * q / 40.0, d = 0;
        if (fn(ctx, t, 0, 1, x, u) != HES_OK)
            continue;
        for (int r = 0; r < c->n_in; r++)
            sys->p[c->in_idx[r]] = u[r];
        if (hes__field(sys, c->mode[first], tm0 + t, x, F) != HES_OK ||
            hes__guard_dx(sys, c->tr[first], tm0 + t, x, gx) != HES_OK)
            continue;
        for (int r = 0; r < c->dim[first]; r++)
            d += gx[r] * F[r];
        if (d * dir <= 0 && q < 40)
            t_turn = T * (q + 1) / 40.0;
    }
    free(x);
    assert(count >= 1 && count <= 65); /* at most 64 virtual events: dur[65] */
    double w = (T - t_turn) / count;
    for (int q = 0; q < count; q++)
        dur[q] = q == 0 ? t_turn + w : w;
}

hes_status hes_colloc_guess(hes_colloc *c, double *z)
{
    return hes__colloc_guess_from(c, NULL, z);
}

hes_status hes__colloc_guess_from(hes_colloc *c, const double *start, double *z)
{
    if (!c)
        return HES_EINVAL;
    if (!z)
        return hes__fail(c->sys, HES_EINVAL, "collocation guess: no z (NULL)");
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    double *x0 = malloc(sizeof(double) * (size_t)(sys->nmax + 65)), *dur = x0 + sys->nmax;
    if (!x0)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    if (o->guess(sys->p, x0, m->data) != 0) {
        free(x0);
        return hes__fail(sys, HES_EMODEL, "the orbit's initial guess failed");
    }
    for (int i = 0; start && o->free_quotient && i < m->modes[o->mode].dim; i++)
        x0[i] = start[i];             /* in the quotient every component is solved */
    for (int i = 0; start && i < o->n_free_states; i++)   /* the given start's free states */
        x0[o->free_states[i]] = start[o->free_states[i]];
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.section = o->section;
    opts.n_section = 1;
    opts.sequence_only = 1;
    opts.after_transition = o->section;
    hes_traj traj;
    hes_status st = hes_simulate(sys, o->mode, 0.0, 0.0, x0, &opts, &traj);
    if (st == HES_OK && traj.n_phases != c->n_phys)
        st = hes__fail(sys, HES_EINVAL, "the simulated period has %d phases, the sequence %d",
                       traj.n_phases, c->n_phys);
    for (int j = 0; st == HES_OK && j < c->n_phys; j++) {
        sim_sampler s = { c, &traj.phases[j] };
        split_phase(c, j, traj.phases[j].t1 - traj.phases[j].t0, traj.phases[j].tm0,
                    sample_simulation, &s, dur);
        st = fill_phase(c, z, j, dur, traj.phases[j].tm0, sample_simulation, &s);
    }
    for (int j = 0; j < c->n_fp; j++)
        z[c->poff + j] = sys->p[c->pidx[j]];
    hes_traj_free(&traj);
    free(x0);
    return st;
}

/* A gait's physical phase, sampled by simulating the gait's derived model
 * (lib/shaping/gait.c) over it: the states at any time are consistent with the
 * gait's inputs, and a gait re-collocated on another grid (or split by
 * virtual events with equal inputs on both sides) starts on the same orbit. */
typedef struct {
    hes_colloc *c;
    const hes_gait *g;
    hes_system *ds;              /* the derived model's system */
    const hes_traj *traj;        /* one simulated period of it */
    int first, count;            /* its phases that make up the physical phase */
    int same;                    /* as many as the collocation's sub-phases there */
    int *map;                    /* gait input of each collocation input, or -1 */
} gait_sampler;

static hes_status sample_gait(void *ctx, double tau, int sub, int node, double *x, double *u)
{
    gait_sampler *s = ctx;
    int k = s->first;
    double t0 = 0;
    /* the same sub-phases: sub-phase for sub-phase (the inputs jump exactly
     * at their ends); otherwise by time, a node that starts a sub-phase in
     * the later of two touching phases */
    while (s->same ? k < s->first + sub
                   : k + 1 < s->first + s->count &&
                         (node == 0 ? tau >= t0 + (s->traj->phases[k].t1 - s->traj->phases[k].t0)
                                    : tau > t0 + (s->traj->phases[k].t1 - s->traj->phases[k].t0))) {
        t0 += s->traj->phases[k].t1 - s->traj->phases[k].t0;
        k++;
    }
    const hes_phase *ph = &s->traj->phases[k];
    for (int q = 0; q < s->c->n_in; q++)
        u[q] = s->map[q] < 0 ? s->c->sys->p[s->c->in_idx[q]] : hes__gait_input(s->g, k, s->map[q], tau - t0);
    hes_status st = hes_variational(s->ds, ph->mode, ph->tm0, tau - t0, ph->x0, x, NULL);
    if (st != HES_OK)
        return hes__fail(s->c->sys, st, "simulating the initial gait: %s", hes_system_errmsg(s->ds));
    return HES_OK;
}

hes_status hes_colloc_from_gait(hes_colloc *c, const hes_gait *g, double *z)
{
    if (!c)
        return HES_EINVAL;
    if (!g || !z)
        return hes__fail(c->sys, HES_EINVAL, "collocation from a gait: needs the gait and z");
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    hes_error msg;
    int phys = 0;
    for (int i = 0; i < g->n_phases; i++)
        phys += !g->phases[i].is_virtual;
    if (g->n_params != m->n_params || phys != c->n_phys || g->n_phases < 1 ||
        g->phases[g->n_phases - 1].is_virtual)
        return hes__fail(sys, HES_EINVAL, "the gait does not fit model '%s' (%d physical phases, "
                         "the orbit has %d)", m->name, phys, c->n_phys);
    for (int i = 0, j = 0; i < g->n_phases; j += !g->phases[i].is_virtual, i++)
        if (g->phases[i].mode != m->transitions[m->orbit.sequence[j]].from)
            return hes__fail(sys, HES_EINVAL, "gait phase %d is in mode '%s', the orbit's "
                             "phase there in '%s'", i + 1, m->modes[g->phases[i].mode].name,
                             m->modes[m->transitions[m->orbit.sequence[j]].from].name);
    memcpy(sys->p, g->params, sizeof(double) * (size_t)m->n_params);
    hes_status pst = hes_system_check_params(sys); /* the gait's (and the caller's) values */
    if (pst != HES_OK)
        return pst;
    hes_model *dm = NULL;
    hes_system *ds = NULL;
    hes_traj traj;
    memset(&traj, 0, sizeof traj);
    if (hes_gait_model(g, m, &dm, &msg) != HES_OK)
        return hes__fail(sys, HES_EINVAL, "the initial gait: %s", msg.message);
    if (hes_system_new(dm, &ds, NULL) != HES_OK) {
        hes_model_destroy(dm);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    hes_settings set = hes_system_get_settings(ds);
    set.rtol = set.atol = 1e-10;
    hes_system_set_settings(ds, &set);
    hes_sim_options opts;
    hes_sim_options_init(&opts);
    opts.section = dm->orbit.section;
    opts.n_section = 1;
    opts.sequence_only = 1;
    opts.after_transition = dm->orbit.section;
    hes_status st = hes_simulate(ds, 0, 0.0, 0.0, g->phases[0].x, &opts, &traj);
    if (st != HES_OK || traj.n_phases != g->n_phases)
        st = hes__fail(sys, st != HES_OK ? st : HES_EINVAL, "simulating the initial gait over "
                       "one period failed: %s", hes_system_errmsg(ds));
    gait_sampler s = { c, g, ds, &traj, 0, 0, 0, malloc(sizeof(int) * (size_t)(c->n_in + 1)) };
    double dur[65];
    if (st == HES_OK && !s.map)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    for (int q = 0; st == HES_OK && q < c->n_in; q++) {
        s.map[q] = -1;
        for (int r = 0; r < g->n_inputs; r++)
            if (g->inputs[r] == c->in_idx[q])
                s.map[q] = r;
    }
    for (int j = 0, gi = 0; st == HES_OK && j < c->n_phys; j++) {
        int first = 0, count = 0;
        while (c->phys[first] != j)
            first++;
        for (int i = first; i < c->n_phases && c->phys[i] == j; i++)
            count++;
        s.first = gi;
        s.count = 0;
        double T = 0;
        do {
            T += traj.phases[gi].t1 - traj.phases[gi].t0;
            s.count++;
        } while (g->phases[gi++].is_virtual);
        s.same = s.count == count && count <= 64;
        if (s.same)
            for (int q = 0; q < count; q++)
                dur[q] = traj.phases[s.first + q].t1 - traj.phases[s.first + q].t0;
        double tm0 = 0;
        for (int i = c->clock_start[first]; i < first; i++)
            tm0 += z[c->toff[i]];
        if (!s.same)
            split_phase(c, j, T, tm0, sample_gait, &s, dur);
        st = fill_phase(c, z, j, dur, tm0, sample_gait, &s);
    }
    for (int j = 0; j < c->n_fp; j++)
        z[c->poff + j] = sys->p[c->pidx[j]];
    free(s.map);
    hes_traj_free(&traj);
    hes_system_destroy(ds);
    hes_model_destroy(dm);
    return st;
}

hes_status hes_colloc_gait(hes_colloc *c, const double *z, hes_gait *g)
{
    if (!c || !g) {
        if (g)
            memset(g, 0, sizeof *g);
        return c ? hes__fail(c->sys, HES_EINVAL, "collocation gait: nowhere to put it (NULL)") : HES_EINVAL;
    }
    if (!z) {
        memset(g, 0, sizeof *g);
        return hes__fail(c->sys, HES_EINVAL, "collocation gait: no z (NULL)");
    }
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    memset(g, 0, sizeof *g);
    hes__colloc_put_params(c, z);
    g->problem = strdup(m->name);
    g->n_params = m->n_params;
    g->params = malloc(sizeof(double) * (size_t)m->n_params);
    g->n_inputs = c->n_in;
    g->inputs = malloc(sizeof(int) * (size_t)(c->n_in + 1));
    g->n_phases = c->n_phases;
    g->phases = calloc((size_t)c->n_phases, sizeof *g->phases);
    g->psi = g->energy = NAN;
    if (!g->problem || !g->params || !g->inputs || !g->phases) {
        hes_gait_free(g);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    memcpy(g->params, sys->p, sizeof(double) * (size_t)m->n_params);
    memcpy(g->inputs, c->in_idx, sizeof(int) * (size_t)c->n_in);
    for (int q = 0; q < c->n_in; q++) /* set per phase by the schedule; the value is unused */
        g->params[c->in_idx[q]] = 0.0;
    for (int i = 0; i < c->n_phases; i++) {
        hes_gait_phase *ph = &g->phases[i];
        int n = c->dim[i];
        ph->mode = c->mode[i];
        ph->transition = c->tr[i];
        ph->is_virtual = c->virt[i];
        ph->offset = c->virt[i] ? z[c->voff[i]] : 0.0;
        ph->direction = m->transitions[c->tr[i]].direction;
        if (c->virt[i]) { /* the way the virtual guard is crossed on this orbit */
            double *F = c->work, *gx = F + sys->nmax, te = hes__colloc_phase_t0(c, z, i) + z[c->toff[i]], d = 0;
            const double *xe = z + c->xoff[i] + (size_t)(c->nn[i] - 1) * c->dim[i];
            hes__colloc_set_inputs(c, z, i, c->nn[i] - 1, 0);
            if (hes__field(sys, c->mode[i], te, xe, F) != HES_OK ||
                hes__guard_dx(sys, c->tr[i], te, xe, gx) != HES_OK) {
                hes_gait_free(g);
                return HES_EMODEL;
            }
            for (int r = 0; r < c->dim[i]; r++)
                d += gx[r] * F[r];
            ph->direction = d < 0 ? HES_DOWN : HES_UP;
        }
        ph->duration = z[c->toff[i]];
        ph->nodes = c->nn[i];
        ph->u_rows = c->urows[i];
        ph->x = malloc(sizeof(double) * (size_t)(ph->nodes * n));
        ph->u = malloc(sizeof(double) * (size_t)(ph->u_rows * c->n_in + 1));
        if (!ph->x || !ph->u) {
            hes_gait_free(g);
            return hes__fail(sys, HES_ENOMEM, "out of memory");
        }
        memcpy(ph->x, z + c->xoff[i], sizeof(double) * (size_t)(ph->nodes * n));
        hes__colloc_put_params(c, z);
        memcpy(ph->u, z + c->uoff[i], sizeof(double) * (size_t)(ph->u_rows * c->n_in));
    }
    if (c->n_in)
        g->energy = hes__colloc_energy(c, z, NULL);
    return HES_OK;
}

hes_status hes__colloc_perturb(hes_colloc *c, double *z, double spread, unsigned long seed,
                               int start)
{
    size_t nv = (size_t)c->nv;
    char *free_var = calloc(nv, 1);
    double *lo = malloc(sizeof(double) * 2 * nv), *hi = lo ? lo + nv : NULL;
    if (!free_var || !lo) {
        free(free_var);
        free(lo);
        return hes__fail(c->sys, HES_ENOMEM, "out of memory");
    }
    hes__colloc_mark_free(c, free_var);
    hes__colloc_bounds(c, z, lo, hi);
    /* one stream per (seed, start): splitmix64 from their combination */
    unsigned long long rng = (unsigned long long)seed * 0x100000001B3ULL + (unsigned)start;
    for (size_t j = 0; j < nv; j++) {
        if (!free_var[j])
            continue;
        double u = 2.0 * hes__rng_uniform(&rng) - 1.0;
        z[j] = fmin(hi[j], fmax(lo[j], z[j] + spread * fmax(fabs(z[j]), 0.1) * u));
    }
    free(free_var);
    free(lo);
    return HES_OK;
}
