/*
 * collocation.c - multi-phase direct collocation of a periodic orbit over the
 * fixed event sequence of the model's orbit spec (core paper Sec. III-E,
 * problem (8)): the object, its options, the layout of the decision vector
 * and the workspaces.  The discretisation is Hermite-Simpson in compressed
 * form (Betts, Practical Methods for Optimal Control, 2nd ed., 2010,
 * Sec. 4.5; Kelly, SIAM Review 59(4), 2017, Sec. 4): fourth order, one
 * vector-field evaluation per interval midpoint, and defects that depend only
 * on neighbouring nodes, which keeps the constraint Jacobian block-sparse and
 * makes the variational matrix of a step a small implicit-function Jacobian.
 * (Legendre-Gauss-Radau would give higher order per node but couples every
 * node of a phase in each defect; the step matrices of the monodromy would
 * then be dense per phase.)  The other concepts are in the colloc_*.c files
 * (shaping/colloc_internal.h lists them).
 *
 * Phases: the phase before event j of the sequence, split into v_j + 1
 * sub-phases by v_j virtual events (g_j(t, x) + p = 0, identity reset).
 * Decision variables z, phase after phase: the states X_i,0 .. X_i,N_i-1 at
 * equally spaced nodes, the duration T_i, the inputs U_i (one row per node,
 * linear in between, or one row), the virtual offset p_i; then the solved and
 * the design parameters.  Equality constraints (colloc_defects.c,
 * colloc_events.c), in order:
 *   defects   X_k+1 - X_k - h/6 (f_k + 4 f_m + f_k+1) = 0,
 *             x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1),  h = T_i / (N_i - 1),
 *             u_m = (u_k + u_k+1)/2;
 *   event     g_i(t_end, X_i,N-1) (+ p_i) = 0;
 *   reset     X_i+1,0 - R_i(t_end, X_i,N-1) = 0 (identity for a virtual event;
 *             the last phase wraps to the first: periodicity);
 *   anchor    X_0,0[j] = the orbit spec's value for every residual component
 *             j that is not a free state (as the shooting solver fixes it).
 * Inequalities (colloc_path.c): the model's path constraints at the interior
 * nodes of every physical phase, crossing rates, the order of virtual
 * events.  Model time starts at 0 on the first phase and restarts after a
 * clock-resetting physical event.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/colloc_internal.h"

int hes_colloc_nvars(const hes_colloc *c) { return c ? c->nv : 0; }
int hes_colloc_ncons(const hes_colloc *c) { return c ? c->nc : 0; }
const char *hes_colloc_errmsg(const hes_colloc *c) { return c ? hes_system_errmsg(c->sys) : NULL; }
int hes_colloc_nineq(const hes_colloc *c) { return c ? c->ni : 0; }
int hes_colloc_phases(const hes_colloc *c) { return c ? c->n_phases : 0; }

void hes_colloc_options_init(hes_colloc_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->nodes = 21;
    o->psi_floor_smoothing = HES_COLLOC_FLOOR_SMOOTHING;
}

void hes_colloc_destroy(hes_colloc *c)
{
    if (!c)
        return;
    free(c->mode);
    free(c->in_idx);
    free(c->in_lo);
    free(c->pidx);
    free(c->plo);
    free(c->anchor);
    free(c->anchor_value);
    free(c->work);
    free(c->ework);
    free(c->fac);
    free(c->G);
    free(c->Dlu);
    free(c->Dpiv);
    free(c->GF);
    free(c->chain);
    free(c->sens);
    hes_stability_free(&c->stab);
    free(c->gtmp);
    free(c->cvtmp);
    free(c->btmp);
    free(c->cand);
    hes__colloc_team_stop(c);
    hes__colloc_ws_free(&c->ws);
    free(c->gvars);
    free(c->gnvar);
    free(c->gcon);
    free(c->vfac);
    free(c->vfac_off);
    free(c);
}

/* Sub-phases after a virtual event start on the stretch where the guard
 * already moves towards their end event: there the guard (plus offset)
 * must stay on its side until the end, so that the end is the first
 * crossing (what a simulation finds) and the offsets come in order. */
int hes__colloc_order_checked(const hes_colloc *c, int i)
{
    assert(i >= 0 && i < c->n_phases);
    return i > 0 && c->virt[i - 1] && c->phys[i - 1] == c->phys[i] && c->vdir[i] != HES_ANY;
}

/* Which path constraints apply at node k of phase i: none at the first
 * node of a physical phase (the reset's image, or the node the previous
 * phase ended on), at the node of a physical event only those flagged
 * at_end (the others the event itself fixes, e.g. a guard that is also a
 * path constraint), all elsewhere.  0: none, 1: at_end ones, 2: all. */
int hes__colloc_node_kind(const hes_colloc *c, int i, int k)
{
    assert(i >= 0 && i < c->n_phases && k >= 0 && k < c->nn[i]);
    if (k == 0)
        return 0;
    return k == c->nn[i] - 1 && !c->virt[i] ? 1 : 2;
}

int hes__colloc_path_count(const hes_colloc *c, int mode, int kind)
{
    int n = 0;
    for (int q = 0; c->spec && kind > 0 && q < c->spec->n_path; q++)
        if (c->spec->path[q].mode == mode && (kind == 2 || c->spec->path[q].at_end))
            n += c->spec->path[q].n;
    return n;
}

/* The workspaces of every evaluation (see struct hes_colloc): sizes from
 * the layout, the largest design (nv_max) and the largest mode (nm). */
static hes_status alloc_workspaces(hes_colloc *c)
{
    hes_system *sys = c->sys;
    int nm = sys->nmax, P = c->n_phases, n0 = c->dim[0], nr = c->nc > c->ni ? c->nc : c->ni;
    size_t mm = (size_t)nm * nm;
    c->work_len = (size_t)c->max_nodes * (4 * nm + 2) + 16 * mm + 16 * (size_t)nm +
                  (size_t)c->n_in * nm + 16;
    /* an event factor: clock-local saltation (colloc_psi.c), the saltation
     * matrix, or the section matrix of the last phase's event */
    c->ework_len = 3 * (size_t)nm + mm;
    c->nfac = 0;
    for (int i = 0; i < P; i++)
        c->nfac += c->nn[i];
    c->work = malloc(sizeof(double) * c->work_len);
    c->ework = malloc(sizeof(double) * c->ework_len);
    c->fac = malloc(sizeof *c->fac * (size_t)c->nfac);
    c->G = malloc(sizeof(double) * mm * (size_t)c->nfac);
    c->Dlu = malloc(sizeof(double) * mm * (size_t)c->nfac);
    c->Dpiv = malloc(sizeof(int) * (size_t)nm * (size_t)c->nfac);
    c->GF = malloc(sizeof *c->GF * (size_t)c->nfac);
    c->chain = malloc(sizeof(double) * (2 * mm + (size_t)nm)); /* cur, nxt, normal */
    c->sens = malloc(sizeof(double) * 4 * (size_t)c->nfac * nm * (size_t)(n0 > 1 ? n0 : 1));
    c->gtmp = malloc(sizeof(double) * (size_t)c->nv_max);
    c->cvtmp = malloc(sizeof(double) * (size_t)(nr + 1));
    c->btmp = malloc(sizeof(double) * 2 * (size_t)c->nv_max);
    if (!c->work || !c->ework || !c->fac || !c->G || !c->Dlu || !c->Dpiv || !c->GF || !c->chain ||
        !c->sens || !c->gtmp || !c->cvtmp || !c->btmp ||
        hes__stability_alloc(&c->stab, n0) != HES_OK)
        return HES_ENOMEM;
    /* psi's gradient: every factor's variables and contributions */
    size_t maxv = (size_t)(2 * nm + P + c->n_solved + HES_COLLOC_MAX_DESIGN + 2 * c->n_in + 1);
    c->gvars = malloc(sizeof(int) * maxv * (size_t)c->nfac);
    c->gnvar = malloc(sizeof(int) * 2 * (size_t)c->nfac);
    c->gcon = malloc(sizeof(double) * maxv * (size_t)c->nfac);
    c->vfac = malloc(sizeof(int) * maxv * (size_t)c->nfac);
    c->vfac_off = malloc(sizeof(int) * ((size_t)c->nv_max + 1));
    if (!c->gvars || !c->gnvar || !c->gcon || !c->vfac || !c->vfac_off)
        return HES_ENOMEM;
    c->goff = c->gnvar + c->nfac;
    return hes__colloc_ws_init(c, sys, &c->ws);
}

/* The options the layout depends on, checked against the model: an
 * autonomous orbit spec with an event sequence, 2 nodes or more, a known
 * NLP solver that is built in, inputs among the parameters, 0 to 64 virtual
 * events before each event; the number of phases into *P. */
static hes_status check_options(hes_system *sys, const hes_colloc_options *opts, int *P)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int S = o->n_sequence;
    if (!o->guess || S < 1 || o->period_param)
        return hes__fail(sys, HES_EINVAL, "collocation needs an autonomous orbit spec with an "
                         "event sequence (model '%s')", m->name);
    if (opts->nodes < 2)
        return hes__fail(sys, HES_EINVAL, "collocation needs at least 2 nodes per phase");
    if ((int)opts->solver < HES_NLP_DEFAULT || opts->solver > HES_NLP_HYBRID)
        return hes__fail(sys, HES_EINVAL, "unknown NLP solver %d", (int)opts->solver);
    if (!hes_nlp_solver_available(opts->solver))
        return hes__fail(sys, HES_ESOLVER, "the NLP solver %s is not built in: install the "
                         "Debian package coinor-libipopt-dev and run configure again",
                         hes_nlp_solver_name(opts->solver));
    if (opts->n_inputs < 0 || opts->n_inputs > m->n_params)
        return hes__fail(sys, HES_EINVAL, "invalid number of inputs %d", opts->n_inputs);
    *P = 0;
    for (int j = 0; j < S; j++) {
        int v = opts->virtual_events ? opts->virtual_events[j] : 0;
        if (v < 0 || v > 64)
            return hes__fail(sys, HES_EINVAL, "%d virtual events before '%s': between 0 and 64",
                             v, m->transitions[o->sequence[j]].name);
        *P += v + 1;
    }
    return HES_OK;
}

/* The object with its per-phase arrays (13 of P ints in one block), the
 * parameters', anchors' and inputs' arrays; NULL when out of memory. */
static hes_colloc *colloc_alloc(hes_system *sys, int P, int n_in)
{
    const hes_orbit_spec *o = &sys->model->orbit;
    hes_colloc *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->sys = sys;
    c->n_phases = P;
    c->n_phys = o->n_sequence;
    c->mode = malloc(sizeof(int) * 13 * (size_t)P);
    c->n_fp = c->n_solved = o->n_free_params;
    c->pidx = malloc(sizeof(int) * (size_t)(c->n_fp + HES_COLLOC_MAX_DESIGN));
    c->plo = malloc(sizeof(double) * 2 * (size_t)(c->n_fp + HES_COLLOC_MAX_DESIGN));
    c->anchor = malloc(sizeof(int) * (size_t)(o->n_residual + 1));
    c->anchor_value = malloc(sizeof(double) * (size_t)(sys->nmax + 1));
    c->in_idx = malloc(sizeof(int) * (size_t)(n_in + 1));
    c->in_lo = malloc(sizeof(double) * (size_t)(2 * n_in + 2 * sys->nmax + 2));
    if (!c->mode || !c->pidx || !c->plo || !c->anchor || !c->anchor_value || !c->in_idx ||
        !c->in_lo) {
        hes_colloc_destroy(c);
        return NULL;
    }
    c->tr = c->mode + P;
    c->virt = c->tr + P;
    c->dim = c->virt + P;
    c->nn = c->dim + P;
    c->xoff = c->nn + P;
    c->toff = c->xoff + P;
    c->uoff = c->toff + P;
    c->voff = c->uoff + P;
    c->urows = c->voff + P;
    c->clock_start = c->urows + P;
    c->phys = c->clock_start + P;
    c->vdir = c->phys + P;
    c->in_hi = c->in_lo + n_in;
    c->x0_lo = c->in_hi + n_in;
    c->x0_hi = c->x0_lo + sys->nmax;
    c->n_in = n_in;
    return c;
}

/* The inputs: model parameters that are not solved for, with their
 * bounds (none where the options give none). */
static hes_status set_inputs(hes_colloc *c, const hes_colloc_options *opts)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    for (int q = 0; q < c->n_in; q++) {
        int pi = hes_model_param_index(m, opts->inputs[q]);
        int solved = 0;
        for (int f = 0; pi >= 0 && f < o->n_free_params; f++)
            solved |= strcmp(o->free_params[f], opts->inputs[q]) == 0;
        if (pi < 0 || solved)
            return hes__fail(sys, pi < 0 ? HES_ENOTFOUND : HES_EINVAL,
                             pi < 0 ? "model '%s' has no parameter '%s' to use as an input"
                                    : "model '%s': the solved parameter '%s' cannot be an input",
                             m->name, opts->inputs[q]);
        c->in_idx[q] = pi;
        c->in_lo[q] = opts->input_lo ? opts->input_lo[q] : -HUGE_VAL;
        c->in_hi[q] = opts->input_hi ? opts->input_hi[q] : HUGE_VAL;
    }
    return HES_OK;
}

/* The bounds of the first state and the durations, the path constraints,
 * the measure, its smoothings and floor, the solver and the progress
 * callback from the options. */
static void set_options(hes_colloc *c, const hes_colloc_options *opts)
{
    const hes_model *m = c->sys->model;
    /* held inputs and virtual offsets determine the orbit: bounds on its
     * first state and its durations and the path constraints would
     * over-determine it (a gait's sub-phase at the minimum duration 0.005 s
     * is 0.004995 s long on the knee biped's 4 times finer grid: a feasible
     * gait refused) */
    int held = opts->fix_inputs != 0;
    int n0 = m->modes[m->orbit.mode].dim;
    for (int r = 0; r < n0; r++) {
        c->x0_lo[r] = opts->x0_lo && !held ? opts->x0_lo[r] : -HUGE_VAL;
        c->x0_hi[r] = opts->x0_hi && !held ? opts->x0_hi[r] : HUGE_VAL;
    }
    c->dmin = held ? 0.0 : opts->min_duration;
    c->smooth = opts->smooth_weight > 0 ? opts->smooth_weight : 0.0;
    c->measure = opts->measure == HES_MEASURE_SMOOTH ? HES_MEASURE_SMOOTH : HES_MEASURE_PSI;
    c->fix_inputs = opts->fix_inputs;
    c->psi_floor = opts->psi_floor > 0 ? opts->psi_floor : 0.0;
    c->floor_smoothing = opts->psi_floor_smoothing > 0 && isfinite(opts->psi_floor_smoothing)
                         ? opts->psi_floor_smoothing : 0.0;
    c->psi_smoothing = opts->psi_smoothing > 0 && isfinite(opts->psi_smoothing)
                       ? opts->psi_smoothing : 0.0;
    c->solver = opts->solver;
    c->dmax = opts->max_duration > 0 && !held ? opts->max_duration : HUGE_VAL;
    c->spec = opts->path && !held ? m->trajopt : NULL;
    c->progress = opts->progress;
    c->progress_ctx = opts->progress_ctx;
}

/* The phases and the decision vector's layout: v_j + 1 sub-phases before
 * event j (at least 3 nodes each, refine times finer), each with its
 * states, duration, input rows and virtual offset in turn; then the solved
 * parameters, with their bounds. */
static void phase_layout(hes_colloc *c, const hes_colloc_options *opts)
{
    const hes_model *m = c->sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int nodes = opts->nodes, n_in = c->n_in;
    int refine = opts->refine > 1 ? opts->refine : 1;
    int off = 0, start = 0, i = 0;
    c->max_nodes = 2;
    for (int j = 0; j < o->n_sequence; j++) {
        int v = opts->virtual_events ? opts->virtual_events[j] : 0;
        /* the first sub-phase (up to the guard's turn, see split_phase) gets
         * half the phase's nodes, the others share the other half */
        int first_nodes = v == 0 ? nodes : (nodes - 1) / 2 + 1,
            later_nodes = v == 0 ? nodes : (nodes - 1) / (2 * v) + 1;
        first_nodes = first_nodes < 3 ? 3 : first_nodes;
        later_nodes = later_nodes < 3 ? 3 : later_nodes;
        for (int s = 0; s <= v; s++, i++) {
            int sub_nodes = (s == 0 ? first_nodes : later_nodes);
            sub_nodes = refine * (sub_nodes - 1) + 1;
            c->tr[i] = o->sequence[j];
            c->virt[i] = s < v;
            c->phys[i] = j;
            c->mode[i] = m->transitions[c->tr[i]].from;
            c->dim[i] = m->modes[c->mode[i]].dim;
            c->nn[i] = sub_nodes;
            if (sub_nodes > c->max_nodes)
                c->max_nodes = sub_nodes;
            c->urows[i] = n_in == 0 ? 0 : opts->constant_inputs ? 1 : sub_nodes;
            c->xoff[i] = off;
            off += sub_nodes * c->dim[i];
            c->toff[i] = off++;
            c->uoff[i] = off;
            off += c->urows[i] * n_in;
            c->voff[i] = c->virt[i] ? off++ : -1;
            c->clock_start[i] = start;
            if (!c->virt[i] && m->transitions[c->tr[i]].clock_reset)
                start = i + 1;
        }
        if (v > 0)
            c->phase_clock = 1;
    }
    if (n_in > 0)
        c->phase_clock = 1;
    c->poff = off;
    c->phi = c->plo + c->n_fp + HES_COLLOC_MAX_DESIGN;
    for (int q = 0; q < c->n_fp; q++) {
        c->pidx[q] = hes_model_param_index(m, o->free_params[q]);
        c->plo[q] = m->params[c->pidx[q]].min;
        c->phi[q] = m->params[c->pidx[q]].max;
    }
    c->nv = off + c->n_fp;
}

/* The anchors: the orbit spec's guess, and the residual components that
 * are not free states (fixed at their guessed values). */
static hes_status set_anchors(hes_colloc *c)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    if (o->guess(sys->p, c->anchor_value, m->data) != 0)
        return hes__fail(sys, HES_EMODEL, "the orbit's initial guess failed");
    for (int r = 0; r < o->n_residual; r++) {
        int j = o->residual[r], free_state = 0;
        for (int f = 0; f < o->n_free_states; f++)
            free_state |= o->free_states[f] == j;
        if (!free_state)
            c->anchor[c->n_anchor++] = j;
    }
    return HES_OK;
}

/* The numbers of equality constraints (defects, event, reset per phase;
 * the anchors) and of inequalities (path constraints at the nodes, at
 * most 64 values at one node; crossing rates; the order of virtual
 * events) into c->nc and c->ni, with each phase's crossing direction
 * (c->vdir) that the last two depend on. */
static hes_status count_constraints(hes_colloc *c)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    int P = c->n_phases, nc = 0, ni = 0;
    for (int p = 0; p < P; p++) {
        nc += (c->nn[p] - 1) * c->dim[p] + 1 + c->dim[(p + 1) % P];
        for (int k = 0; k < c->nn[p]; k++) {
            int np = hes__colloc_path_count(c, c->mode[p], hes__colloc_node_kind(c, p, k));
            if (np > 64) /* colloc_path.c differences them in 64-value buffers */
                return hes__fail(sys, HES_EINVAL, "model '%s': %d path-constraint values in "
                                 "mode '%s', at most 64", m->name, np, m->modes[c->mode[p]].name);
            ni += np;
        }
    }
    for (int p = 0; p < P; p++) {
        c->vdir[p] = m->transitions[c->tr[p]].direction;
        ni += c->spec && (c->virt[p] || c->vdir[p] != HES_ANY);
    }
    for (int p = 0; c->spec && p < P; p++)
        if (hes__colloc_order_checked(c, p))
            ni += c->nn[p] - 1;
    c->nc = nc + c->n_anchor;
    c->ni = ni;
    return HES_OK;
}

hes_status hes_colloc_new(hes_system *sys, const hes_colloc_options *opts, hes_colloc **out)
{
    if (out)
        *out = NULL;
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_colloc_new");
    /* the defects are ambient Hermite-Simpson differences: not on a manifold */
    if (hes__refuse_charts(sys, "direct collocation") != HES_OK)
        return HES_EINVAL;
    if (!out)
        return hes__fail(sys, HES_EINVAL, "collocation: needs somewhere to put it");
    hes_colloc_options def;
    if (!opts) {
        hes_colloc_options_init(&def);
        opts = &def;
    }
    int P = 0;
    *out = NULL;
    hes_status st = check_options(sys, opts, &P);
    if (st != HES_OK)
        return st;
    hes_colloc *c = colloc_alloc(sys, P, opts->n_inputs);
    if (!c)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    if ((st = set_inputs(c, opts)) != HES_OK) {
        hes_colloc_destroy(c);
        return st;
    }
    set_options(c, opts);
    phase_layout(c, opts);
    if ((st = set_anchors(c)) != HES_OK || (st = count_constraints(c)) != HES_OK) {
        hes_colloc_destroy(c);
        return st;
    }
    c->nv_max = c->poff + c->n_solved + HES_COLLOC_MAX_DESIGN;
    assert(c->nv == c->poff + c->n_fp && c->nv <= c->nv_max);
    if (alloc_workspaces(c) != HES_OK) {
        hes_colloc_destroy(c);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    if (opts->jobs > 1) {
        st = hes__colloc_team_start(c, opts->jobs);
        if (st != HES_OK) {
            hes_colloc_destroy(c);
            return st;
        }
    }
    *out = c;
    return HES_OK;
}

double hes__colloc_phase_t0(const hes_colloc *c, const double *z, int i)
{
    double t = 0;
    for (int j = c->clock_start[i]; j < i; j++)
        t += z[c->toff[j]];
    return t;
}

void hes__colloc_put_params(hes_colloc *c, const double *z)
{
    hes__colloc_put_params_sys(c, c->sys, z);
}

void hes__colloc_put_params_sys(const hes_colloc *c, hes_system *sys, const double *z)
{
    for (int j = 0; j < c->n_fp; j++)
        sys->p[c->pidx[j]] = z[c->poff + j];
}

void hes__colloc_set_inputs(hes_colloc *c, const double *z, int i, int k, int mid)
{
    hes__colloc_set_inputs_sys(c, c->sys, z, i, k, mid);
}

void hes__colloc_set_inputs_sys(const hes_colloc *c, hes_system *sys, const double *z, int i,
                                int k, int mid)
{
    assert(i >= 0 && i < c->n_phases && k >= 0 && k + (mid != 0) < c->nn[i]);
    if (c->n_in == 0)
        return;
    const double *U = z + c->uoff[i];
    int r0 = c->urows[i] == 1 ? 0 : k, r1 = c->urows[i] == 1 ? 0 : mid ? k + 1 : k;
    for (int q = 0; q < c->n_in; q++)
        sys->p[c->in_idx[q]] = 0.5 * (U[(size_t)r0 * c->n_in + q] + U[(size_t)r1 * c->n_in + q]);
}

double hes_colloc_duration(const hes_colloc *c, const double *z, int phase)
{
    if (!c || !z || phase < 0 || phase >= c->n_phases)
        return NAN;
    return z[c->toff[phase]];
}

const double *hes_colloc_state(const hes_colloc *c, const double *z, int phase, int node)
{
    if (!c || !z || phase < 0 || phase >= c->n_phases || node < 0 || node >= c->nn[phase])
        return NULL;
    return z + c->xoff[phase] + (size_t)node * c->dim[phase];
}

hes_status hes_colloc_set_design(hes_colloc *c, int n, const char *const *names,
                                 const double *lo, const double *hi)
{
    if (!c)
        return HES_EINVAL;
    if (n > 0 && (!names || !lo || !hi))
        return hes__fail(c->sys, HES_EINVAL, "design parameters: needs names, lo and hi for n > 0");
    hes_system *sys = c->sys;
    if (n < 0 || n > HES_COLLOC_MAX_DESIGN)
        return hes__fail(sys, HES_EINVAL, "at most %d design parameters", HES_COLLOC_MAX_DESIGN);
    c->n_fp = c->n_solved;
    for (int j = 0; j < n; j++) {
        int pi = hes_model_param_index(sys->model, names[j]);
        if (pi < 0)
            return hes__fail(sys, HES_ENOTFOUND, "model '%s' has no parameter '%s'",
                             sys->model->name, names[j]);
        for (int q = 0; q < c->n_in; q++)
            if (c->in_idx[q] == pi)
                return hes__fail(sys, HES_EINVAL, "'%s' is an input, not a design parameter",
                                 names[j]);
        if (!(lo[j] < hi[j]) || sys->p[pi] < lo[j] || sys->p[pi] > hi[j])
            return hes__fail(sys, HES_EINVAL, "design parameter %s = %g needs bounds LO < HI "
                             "around it (got %g:%g)", names[j], sys->p[pi], lo[j], hi[j]);
        c->pidx[c->n_fp] = pi;
        c->plo[c->n_fp] = lo[j];
        c->phi[c->n_fp] = hi[j];
        c->n_fp++;
    }
    c->nv = c->poff + c->n_fp;
    assert(c->nv <= c->nv_max);
    return HES_OK;
}

/* (colloc_internal.h) */
void hes__colloc_bounds(const hes_colloc *c, const double *z, double *lo, double *hi)
{
    int nv = c->nv;
    for (int side = 0; side < 2; side++) { /* lower, then upper bounds */
        double *b = side ? hi : lo;
        for (int j = 0; j < nv; j++)
            b[j] = side ? HUGE_VAL : -HUGE_VAL;
        for (int i = 0; i < c->n_phases; i++) {
            b[c->toff[i]] = side ? c->dmax : c->dmin; /* durations */
            for (int k = 0; k < c->urows[i]; k++)
                for (int q = 0; q < c->n_in; q++)
                    b[c->uoff[i] + k * c->n_in + q] = side ? c->in_hi[q] : c->in_lo[q];
        }
        for (int r = 0; r < c->dim[0]; r++)
            b[c->xoff[0] + r] = side ? c->x0_hi[r] : c->x0_lo[r];
        for (int j = 0; j < c->n_fp; j++)
            b[c->poff + j] = side ? c->phi[j] : c->plo[j];
        for (int i = 0; c->fix_inputs && i < c->n_phases; i++) {
            for (int k = 0; k < c->urows[i] * c->n_in; k++)
                b[c->uoff[i] + k] = z[c->uoff[i] + k];
            if (c->virt[i])
                b[c->voff[i]] = z[c->voff[i]];
        }
    }
}

/* (colloc_internal.h) */
double hes__colloc_bound_violation(hes_colloc *c, const double *z)
{
    int nv = c->nv;
    double *lo = c->btmp, *hi = lo + nv, v = 0;
    hes__colloc_bounds(c, z, lo, hi);
    for (int j = 0; j < nv; j++)
        v = fmax(v, fmax(lo[j] - z[j], z[j] - hi[j]));
    return v;
}
