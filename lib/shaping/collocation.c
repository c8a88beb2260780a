/*
 * collocation.c - multi-phase direct collocation of a periodic orbit over the
 * fixed event sequence of the model's orbit spec (core paper Sec. III-E,
 * problem (8)), by Hermite-Simpson in compressed form: fourth order, one
 * vector-field evaluation per interval midpoint, and defects that depend only
 * on neighbouring nodes, which keeps the constraint Jacobian block-sparse and
 * makes the variational matrix of a step a small implicit-function Jacobian.
 * (Legendre-Gauss-Radau would give higher order per node but couples every
 * node of a phase in each defect; the step matrices of the monodromy would
 * then be dense per phase.)
 *
 * Phases: the phase before event j of the sequence, split into v_j + 1
 * sub-phases by v_j virtual events (g_j(t, x) + p = 0, identity reset).
 * Decision variables, phase after phase: the states X_i,0 .. X_i,N_i-1 at
 * equally spaced nodes, the duration T_i, the inputs U_i (one row per node,
 * linear in between, or one row), the virtual offset p_i; then the solved and
 * the design parameters.  Equality constraints, in order:
 *   defects   X_k+1 - X_k - h/6 (f_k + 4 f_m + f_k+1) = 0,
 *             x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1),  h = T_i / (N_i - 1),
 *             u_m = (u_k + u_k+1)/2;
 *   event     g_i(t_end, X_i,N-1) (+ p_i) = 0;
 *   reset     X_i+1,0 - R_i(t_end, X_i,N-1) = 0 (identity for a virtual event;
 *             the last phase wraps to the first: periodicity);
 *   anchor    X_0,0[j] = the orbit spec's value for every residual component
 *             j that is not a free state (as the shooting solver fixes it).
 * Inequalities: the model's path constraints at the interior nodes of every
 * physical phase.  Model time starts at 0 on the first phase and restarts
 * after a clock-resetting physical event.  The constraint Jacobian is exact
 * (chain rule through the model's Jacobians; derivatives in time, parameters
 * and inputs by central differences of the model callbacks at the point).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <nlopt.h>
#include <lapacke.h>

#include "shaping/shaping.h"

struct hes_colloc {
    hes_system *sys;
    int n_phases, n_phys;
    /* per phase */
    int *mode, *tr, *virt, *dim, *nn, *xoff, *toff, *uoff, *voff, *urows, *clock_start,
        *phys, *vdir;            /* vdir: crossing direction a virtual event keeps (HES_UP/DOWN) */
    int phase_clock;             /* inputs or virtual events: clock-local saltation */
    int n_in, *in_idx;           /* inputs */
    double *in_lo, *in_hi;
    double *x0_lo, *x0_hi, dmin, dmax, smooth;
    hes_measure measure;
    int fix_inputs;
    double psi_floor;
    int n_fp, *pidx, poff;       /* solved parameters, then design parameters */
    int n_solved;
    double *plo, *phi;           /* bounds of the parameters in z */
    int n_anchor, *anchor;       /* anchored components of X_0,0 */
    double *anchor_value;
    const hes_trajopt_spec *spec; /* path constraints when set */
    int nv, nc, ni, max_nodes;
    double last_violation;       /* of the last constraint evaluation in the NLP */
    double last_cost;            /* of the last cost evaluation (same point: SLSQP
                                    evaluates the cost, then the constraints) */
    double *cand, cand_cost;     /* the cheapest nearly feasible iterate of the NLP */
    int cand_valid, track;       /* track: record cand (the rounds of hes_colloc_minimize) */
    double *ret_map;             /* when set, colloc_measure copies the return map there */
    void (*progress)(void *, int, double, double, double);
    void *progress_ctx;
    double *work;                /* scratch */
    size_t work_len;
};

int hes_colloc_nvars(const hes_colloc *c) { return c->nv; }
int hes_colloc_ncons(const hes_colloc *c) { return c->nc; }
int hes_colloc_nineq(const hes_colloc *c) { return c->ni; }
int hes_colloc_phases(const hes_colloc *c) { return c->n_phases; }

hes_colloc_options hes_colloc_options_default(void)
{
    hes_colloc_options o;
    memset(&o, 0, sizeof o);
    o.nodes = 21;
    return o;
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
    free(c->cand);
    free(c);
}

/* Sub-phases after a virtual event start on the stretch where the guard
 * already moves towards their end event: there the guard (plus offset)
 * must stay on its side until the end, so that the end is the first
 * crossing (what a simulation finds) and the offsets come in order. */
static int order_checked(const hes_colloc *c, int i)
{
    return i > 0 && c->virt[i - 1] && c->phys[i - 1] == c->phys[i] && c->vdir[i] != HES_ANY;
}

/* Which path constraints apply at node k of phase i: none at the first
 * node of a physical phase (the reset's image, or the node the previous
 * phase ended on), at the node of a physical event only those flagged
 * at_end (the others the event itself fixes, e.g. a guard that is also a
 * path constraint), all elsewhere.  0: none, 1: at_end ones, 2: all. */
static int node_kind(const hes_colloc *c, int i, int k)
{
    if (k == 0)
        return 0;
    return k == c->nn[i] - 1 && !c->virt[i] ? 1 : 2;
}

/* The number of path-constraint values at a node of that kind in mode. */
static int path_count(const hes_colloc *c, int mode, int kind)
{
    int n = 0;
    for (int q = 0; c->spec && kind > 0 && q < c->spec->n_path; q++)
        if (c->spec->path[q].mode == mode && (kind == 2 || c->spec->path[q].at_end))
            n += c->spec->path[q].n;
    return n;
}

hes_status hes_colloc_create(hes_system *sys, int nodes, hes_colloc **out)
{
    hes_colloc_options o = hes_colloc_options_default();
    o.nodes = nodes;
    return hes_colloc_create_opts(sys, &o, out);
}

hes_status hes_colloc_create_opts(hes_system *sys, const hes_colloc_options *opts,
                                  hes_colloc **out)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int nodes = opts->nodes, S = o->n_sequence, P = 0, n_in = opts->n_inputs;
    int refine = opts->refine > 1 ? opts->refine : 1;
    *out = NULL;
    if (!o->guess || S < 1 || o->period_param)
        return hes__fail(sys, HES_EINVAL, "collocation needs an autonomous orbit spec with an "
                         "event sequence (model '%s')", m->name);
    if (nodes < 2)
        return hes__fail(sys, HES_EINVAL, "collocation needs at least 2 nodes per phase");
    if (n_in < 0 || n_in > m->n_params)
        return hes__fail(sys, HES_EINVAL, "invalid number of inputs %d", n_in);
    for (int j = 0; j < S; j++) {
        int v = opts->virtual_events ? opts->virtual_events[j] : 0;
        if (v < 0 || v > 64)
            return hes__fail(sys, HES_EINVAL, "%d virtual events before '%s': between 0 and 64",
                             v, m->transitions[o->sequence[j]].name);
        P += v + 1;
    }
    hes_colloc *c = calloc(1, sizeof *c);
    if (!c)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    c->sys = sys;
    c->n_phases = P;
    c->n_phys = S;
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
        return hes__fail(sys, HES_ENOMEM, "out of memory");
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
    for (int q = 0; q < n_in; q++) {
        int pi = hes_model_param_index(m, opts->inputs[q]);
        int solved = 0;
        for (int f = 0; pi >= 0 && f < o->n_free_params; f++)
            solved |= strcmp(o->free_params[f], opts->inputs[q]) == 0;
        if (pi < 0 || solved) {
            hes_colloc_destroy(c);
            return hes__fail(sys, pi < 0 ? HES_ENOTFOUND : HES_EINVAL,
                             pi < 0 ? "model '%s' has no parameter '%s' to use as an input"
                                    : "model '%s': the solved parameter '%s' cannot be an input",
                             m->name, opts->inputs[q]);
        }
        c->in_idx[q] = pi;
        c->in_lo[q] = opts->input_lo ? opts->input_lo[q] : -HUGE_VAL;
        c->in_hi[q] = opts->input_hi ? opts->input_hi[q] : HUGE_VAL;
    }
    int n0 = m->modes[o->mode].dim;
    for (int r = 0; r < n0; r++) {
        c->x0_lo[r] = opts->x0_lo ? opts->x0_lo[r] : -HUGE_VAL;
        c->x0_hi[r] = opts->x0_hi ? opts->x0_hi[r] : HUGE_VAL;
    }
    c->dmin = opts->min_duration;
    c->smooth = opts->smooth_weight > 0 ? opts->smooth_weight : 0.0;
    c->measure = opts->measure == HES_MEASURE_SMOOTH ? HES_MEASURE_SMOOTH : HES_MEASURE_PSI;
    c->fix_inputs = opts->fix_inputs;
    c->psi_floor = opts->psi_floor > 0 ? opts->psi_floor : 0.0;
    c->dmax = opts->max_duration > 0 ? opts->max_duration : HUGE_VAL;
    c->spec = opts->path ? m->trajopt : NULL;
    c->progress = opts->progress;
    c->progress_ctx = opts->progress_ctx;
    int off = 0, start = 0, i = 0;
    c->max_nodes = 2;
    for (int j = 0; j < S; j++) {
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
    /* anchors: residual components that are not free states */
    if (o->guess(sys->p, c->anchor_value, m->data) != 0) {
        hes_colloc_destroy(c);
        return hes__fail(sys, HES_EMODEL, "the orbit's initial guess failed");
    }
    for (int r = 0; r < o->n_residual; r++) {
        int j = o->residual[r], free_state = 0;
        for (int f = 0; f < o->n_free_states; f++)
            free_state |= o->free_states[f] == j;
        if (!free_state)
            c->anchor[c->n_anchor++] = j;
    }
    int nc = 0, ni = 0;
    for (int p = 0; p < P; p++) {
        nc += (c->nn[p] - 1) * c->dim[p] + 1 + c->dim[(p + 1) % P];
        for (int k = 0; k < c->nn[p]; k++)
            ni += path_count(c, c->mode[p], node_kind(c, p, k));
    }
    for (int p = 0; p < P; p++) {
        c->vdir[p] = m->transitions[c->tr[p]].direction;
        ni += c->spec && (c->virt[p] || c->vdir[p] != HES_ANY);
    }
    for (int p = 0; c->spec && p < P; p++)
        if (order_checked(c, p))
            ni += c->nn[p] - 1;
    c->nc = nc + c->n_anchor;
    c->ni = ni;
    int nm = sys->nmax;
    c->work_len = (size_t)c->max_nodes * (4 * nm + 2) + 16 * (size_t)nm * nm + 16 * (size_t)nm +
                  (size_t)n_in * nm + 16;
    c->work = malloc(sizeof(double) * c->work_len);
    if (!c->work) {
        hes_colloc_destroy(c);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    *out = c;
    return HES_OK;
}

/* model time at the start of phase i */
static double phase_t0(const hes_colloc *c, const double *z, int i)
{
    double t = 0;
    for (int j = c->clock_start[i]; j < i; j++)
        t += z[c->toff[j]];
    return t;
}

static void put_params(hes_colloc *c, const double *z)
{
    for (int j = 0; j < c->n_fp; j++)
        c->sys->p[c->pidx[j]] = z[c->poff + j];
}

/* The inputs of phase i at node k (mid: the midpoint of interval k) into
 * the system's parameters. */
static void set_inputs(hes_colloc *c, const double *z, int i, int k, int mid)
{
    if (c->n_in == 0)
        return;
    const double *U = z + c->uoff[i];
    int r0 = c->urows[i] == 1 ? 0 : k, r1 = c->urows[i] == 1 ? 0 : mid ? k + 1 : k;
    for (int q = 0; q < c->n_in; q++)
        c->sys->p[c->in_idx[q]] = 0.5 * (U[(size_t)r0 * c->n_in + q] + U[(size_t)r1 * c->n_in + q]);
}

/* d/dt and d/dp_j of the vector field by central differences */
static hes_status field_dt(hes_system *sys, int mode, double t, const double *x, double *out,
                           double *tmp)
{
    int n = sys->model->modes[mode].dim;
    double h = hes__fd_step(t);
    hes_status st;
    if ((st = hes__field(sys, mode, t + h, x, out)) != HES_OK ||
        (st = hes__field(sys, mode, t - h, x, tmp)) != HES_OK)
        return st;
    for (int i = 0; i < n; i++)
        out[i] = (out[i] - tmp[i]) / (2 * h);
    return HES_OK;
}

/* Applies fn(sys, index, t, x, out) at p_j + h and p_j - h: out = derivative. */
typedef hes_status (*model_eval)(hes_system *, int, double, const double *, double *);
static hes_status param_derivative(hes_system *sys, model_eval fn, int index, int pj, double t,
                                   const double *x, int n_out, double *out, double *tmp)
{
    double p = sys->p[pj], h = hes__fd_step(p);
    hes_status st;
    sys->p[pj] = p + h;
    st = fn(sys, index, t, x, out);
    sys->p[pj] = p - h;
    if (st == HES_OK)
        st = fn(sys, index, t, x, tmp);
    sys->p[pj] = p;
    for (int i = 0; st == HES_OK && i < n_out; i++)
        out[i] = (out[i] - tmp[i]) / (2 * h);
    return st;
}

static hes_status guard_eval(hes_system *sys, int tr, double t, const double *x, double *out)
{
    return hes__guard(sys, tr, t, x, out);
}

/* The state blocks of a Hermite-Simpson defect d = X_k+1 - X_k - h/6 (f_k +
 * 4 f_m + f_k+1) with x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1):
 *   D0 = dd/dX_k   = -I - h/6 (J_k + 4 J_m (I/2 + h/8 J_k)),
 *   D1 = dd/dX_k+1 =  I - h/6 (J_k+1 + 4 J_m (I/2 - h/8 J_k+1)),
 * from the field Jacobians at the nodes and the midpoint (all n x n); Mx and
 * E are n x n scratch. */
static void defect_state_blocks(int n, double h, const double *Jk, const double *Jk1,
                                const double *Jm, double *Mx, double *E, double *D0, double *D1)
{
    for (int side = 0; side < 2; side++) {
        const double *Js = side ? Jk1 : Jk;
        double sg = side ? -1.0 : 1.0, *Dd = side ? D1 : D0;
        for (int cc = 0; cc < n; cc++)
            for (int r = 0; r < n; r++)
                Mx[r + (size_t)cc * n] = 0.5 * (r == cc) + sg * h / 8 * Js[r + (size_t)cc * n];
        hes__matmul(n, n, n, Jm, Mx, E);
        for (int cc = 0; cc < n; cc++)
            for (int r = 0; r < n; r++)
                Dd[r + (size_t)cc * n] = (side ? 1.0 : -1.0) * (r == cc) -
                                         h / 6 * (Js[r + (size_t)cc * n] + 4 * E[r + (size_t)cc * n]);
    }
}

/* The derivative of a defect in a parameter or input p entering the field
 * at node k (weight wk), the midpoint (wm) and node k+1 (wk1), where the
 * field's p-derivatives are pk, pm, pk1:
 *   dd/dp = -h/6 (wk pk + 4 (J_m h/8 (wk pk - wk1 pk1) + wm pm) + wk1 pk1). */
static void defect_param_column(int n, double h, const double *Jm, const double *pk,
                                const double *pm, const double *pk1, double wk, double wm,
                                double wk1, double *a, double *b, double *out)
{
    for (int r = 0; r < n; r++)
        a[r] = h / 8 * (wk * pk[r] - wk1 * pk1[r]);
    hes__matmul(n, n, 1, Jm, a, b);
    for (int r = 0; r < n; r++)
        out[r] = -h / 6 * (wk * pk[r] + 4 * (b[r] + wm * pm[r]) + wk1 * pk1[r]);
}

/* J[row, col] in a column-major nc x nv matrix */
#define JAC(r, col) jac[(size_t)(r) + (size_t)(col) * (size_t)nc]

hes_status hes_colloc_constraints(hes_colloc *c, const double *z, double *cv, double *jac)
{
    hes_system *sys = c->sys;
    int P = c->n_phases, nc = c->nc, nm = sys->nmax, row = 0;
    hes_status st = HES_OK;
    put_params(c, z);
    if (jac)
        memset(jac, 0, sizeof(double) * (size_t)nc * (size_t)c->nv);
    double *f = c->work;                                   /* nodes x nm field values */
    double *ft = f + (size_t)c->max_nodes * nm;            /* nodes x nm d/dt */
    double *fm = ft + (size_t)c->max_nodes * nm, *xm = fm + nm, *fmt = xm + nm, *tmp = fmt + nm,
           *a = tmp + nm, *b = a + nm, *R = b + nm, *gx = R + nm, *dv = gx + nm,
           *fp = dv + nm, *fpm = fp + 2 * (size_t)nm;
    double *Jk = fpm + nm, *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm,
           *Mx = Jm + (size_t)nm * nm, *D = Mx + (size_t)nm * nm, *DR = D + (size_t)nm * nm,
           *E2 = DR + (size_t)nm * nm;
    for (int i = 0; i < P && st == HES_OK; i++) {
        int n = c->dim[i], md = c->mode[i], tr = c->tr[i], N = c->nn[i];
        double T = z[c->toff[i]], h = T / (N - 1), t0 = phase_t0(c, z, i);
        const double *X = z + c->xoff[i];
        for (int k = 0; k < N && st == HES_OK; k++) {
            set_inputs(c, z, i, k, 0);
            st = hes__field(sys, md, t0 + k * h, X + (size_t)k * n, f + (size_t)k * nm);
            if (st == HES_OK && jac)
                st = field_dt(sys, md, t0 + k * h, X + (size_t)k * n, ft + (size_t)k * nm, tmp);
        }
        for (int k = 0; k + 1 < N && st == HES_OK; k++, row += n) {
            const double *xk = X + (size_t)k * n, *xk1 = xk + n, *fk = f + (size_t)k * nm,
                         *fk1 = fk + nm;
            double tm = t0 + (k + 0.5) * h;
            for (int r = 0; r < n; r++)
                xm[r] = 0.5 * (xk[r] + xk1[r]) + h / 8 * (fk[r] - fk1[r]);
            set_inputs(c, z, i, k, 1);
            if ((st = hes__field(sys, md, tm, xm, fm)) != HES_OK)
                break;
            for (int r = 0; r < n; r++)
                cv[row + r] = xk1[r] - xk[r] - h / 6 * (fk[r] + 4 * fm[r] + fk1[r]);
            if (!jac)
                continue;
            if ((st = hes__field_dx(sys, md, tm, xm, Jm)) != HES_OK ||
                (st = field_dt(sys, md, tm, xm, fmt, tmp)) != HES_OK)
                break;
            set_inputs(c, z, i, k, 0);
            if ((st = hes__field_dx(sys, md, t0 + k * h, xk, Jk)) != HES_OK)
                break;
            set_inputs(c, z, i, k + 1, 0);
            if ((st = hes__field_dx(sys, md, t0 + (k + 1) * h, xk1, Jk1)) != HES_OK)
                break;
            defect_state_blocks(n, h, Jk, Jk1, Jm, Mx, D, DR, E2);
            for (int side = 0; side < 2; side++) {
                const double *Dd = side ? E2 : DR;
                int col0 = c->xoff[i] + (k + side) * n;
                for (int cc = 0; cc < n; cc++)
                    for (int r = 0; r < n; r++)
                        JAC(row + r, col0 + cc) = Dd[r + (size_t)cc * n];
            }
            /* time: t_k = t0 + k h; d/dT_i through h and t, d/dT_j (j earlier,
             * same clock) through t0 */
            double dh = 1.0 / (N - 1);
            for (int which = 0; which < 2; which++) {
                /* which 0: d/dT_i (dt_k/dT = k dh), 1: d/dt0 (dt/dt0 = 1) */
                double ck = which ? 1.0 : k * dh, ck1 = which ? 1.0 : (k + 1) * dh,
                       cm = which ? 1.0 : (k + 0.5) * dh, dhh = which ? 0.0 : dh;
                for (int r = 0; r < n; r++) { /* dx_m */
                    a[r] = dhh / 8 * (fk[r] - fk1[r]) +
                           h / 8 * (ft[(size_t)k * nm + r] * ck - ft[(size_t)(k + 1) * nm + r] * ck1);
                }
                hes__matmul(n, n, 1, Jm, a, b); /* J_m dx_m */
                for (int r = 0; r < n; r++) {
                    double dfm = b[r] + fmt[r] * cm;
                    dv[r] = -dhh / 6 * (fk[r] + 4 * fm[r] + fk1[r]) -
                            h / 6 * (ft[(size_t)k * nm + r] * ck + 4 * dfm + ft[(size_t)(k + 1) * nm + r] * ck1);
                }
                if (which == 0) {
                    for (int r = 0; r < n; r++)
                        JAC(row + r, c->toff[i]) += dv[r];
                } else {
                    for (int j = c->clock_start[i]; j < i; j++)
                        for (int r = 0; r < n; r++)
                            JAC(row + r, c->toff[j]) += dv[r];
                }
            }
            /* parameters (solved, design), then inputs: the field's
             * derivatives at node k, the midpoint and node k+1 */
            for (int q = 0; q < c->n_fp + c->n_in && st == HES_OK; q++) {
                int pj = q < c->n_fp ? c->pidx[q] : c->in_idx[q - c->n_fp];
                double *pk = fp, *pk1 = fp + nm;
                set_inputs(c, z, i, k, 0);
                st = param_derivative(sys, hes__field, md, pj, t0 + k * h, xk, n, pk, tmp);
                set_inputs(c, z, i, k + 1, 0);
                if (st == HES_OK)
                    st = param_derivative(sys, hes__field, md, pj, t0 + (k + 1) * h, xk1, n, pk1, tmp);
                set_inputs(c, z, i, k, 1);
                if (st == HES_OK)
                    st = param_derivative(sys, hes__field, md, pj, tm, xm, n, fpm, tmp);
                if (st != HES_OK)
                    break;
                if (q < c->n_fp) {
                    defect_param_column(n, h, Jm, pk, fpm, pk1, 1, 1, 1, a, b, dv);
                    for (int r = 0; r < n; r++)
                        JAC(row + r, c->poff + q) = dv[r];
                    continue;
                }
                int u = q - c->n_fp;
                for (int side = 0; side < 2; side++) {
                    int rowu = c->urows[i] == 1 ? 0 : k + side;
                    defect_param_column(n, h, Jm, pk, fpm, pk1, side ? 0 : 1, 0.5, side ? 1 : 0,
                                        a, b, dv);
                    for (int r = 0; r < n; r++)
                        JAC(row + r, c->uoff[i] + rowu * c->n_in + u) += dv[r];
                }
            }
        }
        if (st != HES_OK)
            break;
        /* event: g(t_end, X_N-1) (+ p) = 0 */
        const double *xe = X + (size_t)(N - 1) * n;
        double te = t0 + T, g;
        set_inputs(c, z, i, N - 1, 0);
        if ((st = hes__guard(sys, tr, te, xe, &g)) != HES_OK)
            break;
        cv[row] = g + (c->virt[i] ? z[c->voff[i]] : 0.0);
        if (jac) {
            double gt;
            if ((st = hes__guard_dx(sys, tr, te, xe, gx)) != HES_OK ||
                (st = hes__guard_dt(sys, tr, te, xe, &gt)) != HES_OK)
                break;
            for (int r = 0; r < n; r++)
                JAC(row, c->xoff[i] + (N - 1) * n + r) = gx[r];
            for (int j = c->clock_start[i]; j <= i; j++)
                JAC(row, c->toff[j]) += gt;
            for (int q = 0; q < c->n_fp && st == HES_OK; q++)
                st = param_derivative(sys, guard_eval, tr, c->pidx[q], te, xe, 1, &JAC(row, c->poff + q), tmp);
            if (c->virt[i])
                JAC(row, c->voff[i]) = 1.0;
        }
        row++;
        /* reset: X_next,0 - R(t_end, X_N-1) = 0 */
        int in = (i + 1) % P, nn = c->dim[in];
        const double *xn = z + c->xoff[in];
        if (c->virt[i]) {
            for (int r = 0; r < nn; r++) {
                cv[row + r] = xn[r] - xe[r];
                if (jac) {
                    JAC(row + r, c->xoff[in] + r) += 1.0;
                    JAC(row + r, c->xoff[i] + (N - 1) * n + r) -= 1.0;
                }
            }
            row += nn;
            continue;
        }
        if ((st = hes__reset(sys, tr, te, xe, R)) != HES_OK)
            break;
        for (int r = 0; r < nn; r++)
            cv[row + r] = xn[r] - R[r];
        if (jac) {
            if ((st = hes__reset_dx(sys, tr, te, xe, DR)) != HES_OK ||
                (st = hes__reset_dt(sys, tr, te, xe, a)) != HES_OK)
                break;
            for (int r = 0; r < nn; r++) {
                JAC(row + r, c->xoff[in] + r) += 1.0;
                for (int cc = 0; cc < n; cc++)
                    JAC(row + r, c->xoff[i] + (N - 1) * n + cc) -= DR[r + (size_t)cc * nn];
                for (int j = c->clock_start[i]; j <= i; j++)
                    JAC(row + r, c->toff[j]) -= a[r];
            }
            for (int q = 0; q < c->n_fp && st == HES_OK; q++) {
                st = param_derivative(sys, hes__reset, tr, c->pidx[q], te, xe, nn, b, tmp);
                for (int r = 0; st == HES_OK && r < nn; r++)
                    JAC(row + r, c->poff + q) = -b[r];
            }
        }
        row += nn;
    }
    for (int a_i = 0; st == HES_OK && a_i < c->n_anchor; a_i++, row++) {
        int j = c->anchor[a_i];
        cv[row] = z[c->xoff[0] + j] - c->anchor_value[j];
        if (jac)
            JAC(row, c->xoff[0] + j) = 1.0;
    }
    return st;
}
#undef JAC

/* Path constraints of the model at one state, those of a node of the
 * given kind: out[path_count] values. */
static hes_status path_eval(hes_colloc *c, int mode, int kind, double t, const double *x,
                            double *out)
{
    hes_system *sys = c->sys;
    int off = 0;
    for (int q = 0; q < c->spec->n_path; q++) {
        const hes_path_constraint *pc = &c->spec->path[q];
        if (pc->mode != mode || !(kind == 2 || pc->at_end))
            continue;
        int rc = pc->fn(t, x, sys->p, out + off, sys->model->modes[mode].data
                                                      ? sys->model->modes[mode].data
                                                      : sys->model->data);
        if (rc != 0 || !hes__all_finite(out + off, pc->n))
            return hes__fail(sys, HES_EMODEL, "path constraint '%s' failed at t = %g",
                             pc->names && pc->names[0] ? pc->names[0] : "?", t);
        off += pc->n;
    }
    return HES_OK;
}

/* The rate at which the event ending phase i crosses its guard, signed so
 * that it is positive in the transition's direction, at (x, inputs u). */
static hes_status crossing_rate(hes_colloc *c, const double *z, int i, const double *x,
                                double *rate)
{
    hes_system *sys = c->sys;
    int n = c->dim[i], tr = c->tr[i];
    double te = phase_t0(c, z, i) + z[c->toff[i]], gt, *F = c->work, *gx = F + sys->nmax, d;
    hes_status st;
    if ((st = hes__field(sys, c->mode[i], te, x, F)) != HES_OK ||
        (st = hes__guard_dx(sys, tr, te, x, gx)) != HES_OK ||
        (st = hes__guard_dt(sys, tr, te, x, &gt)) != HES_OK)
        return st;
    d = gt;
    for (int r = 0; r < n; r++)
        d += gx[r] * F[r];
    *rate = c->vdir[i] == HES_DOWN ? -d : d;
    return HES_OK;
}




/* Rows of the crossing-rate constraints from `row` on. */
static hes_status crossing_constraints(hes_colloc *c, const double *z, double *cv, double *jac,
                                       int row)
{
    hes_system *sys = c->sys;
    int ni = c->ni, nm = sys->nmax;
    double min_rate = c->spec->min_crossing_rate > 0 ? c->spec->min_crossing_rate : 1e-3;
    double *x = c->work + 2 * (size_t)nm, *zz = NULL;
    hes_status st = HES_OK;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        if (!c->virt[i] && c->vdir[i] == HES_ANY)
            continue;
        int n = c->dim[i], N = c->nn[i], ur = c->urows[i] == 1 ? 0 : N - 1;
        const double *xe = z + c->xoff[i] + (size_t)(N - 1) * n;
        double rate, rp, rm;
        set_inputs(c, z, i, N - 1, 0);
        if ((st = crossing_rate(c, z, i, xe, &rate)) != HES_OK)
            break;
        cv[row] = rate - min_rate;
        for (int r = 0; jac && r < n && st == HES_OK; r++) { /* states of the last node */
            double h = hes__fd_step(xe[r]);
            memcpy(x, xe, sizeof(double) * (size_t)n);
            x[r] = xe[r] + h;
            st = crossing_rate(c, z, i, x, &rp);
            x[r] = xe[r] - h;
            if (st == HES_OK)
                st = crossing_rate(c, z, i, x, &rm);
            jac[(size_t)row + (size_t)(c->xoff[i] + (N - 1) * n + r) * ni] = (rp - rm) / (2 * h);
        }
        for (int q = 0; jac && q < c->n_in && st == HES_OK; q++) { /* inputs there */
            int col = c->uoff[i] + ur * c->n_in + q, pj = c->in_idx[q];
            double u = sys->p[pj], h = hes__fd_step(u);
            (void)zz;
            sys->p[pj] = u + h;
            st = crossing_rate(c, z, i, xe, &rp);
            sys->p[pj] = u - h;
            if (st == HES_OK)
                st = crossing_rate(c, z, i, xe, &rm);
            sys->p[pj] = u;
            jac[(size_t)row + (size_t)col * ni] = (rp - rm) / (2 * h);
        }
        row++;
    }
    return st;
}

static int crossing_count(const hes_colloc *c)
{
    int n = 0;
    for (int i = 0; i < c->n_phases; i++)
        n += c->virt[i] || c->vdir[i] != HES_ANY;
    return n;
}

/* Rows of the order constraints from `row` on: -dir (g(x_k) + p) >= 0 at
 * nodes 0 .. N-2 of the sub-phases order_checked. */
static hes_status order_constraints(hes_colloc *c, const double *z, double *cv, double *jac,
                                    int row)
{
    hes_system *sys = c->sys;
    int ni = c->ni;
    double *gx = c->work;
    hes_status st = HES_OK;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        if (!order_checked(c, i))
            continue;
        int n = c->dim[i], N = c->nn[i];
        double sg = c->vdir[i] == HES_DOWN ? 1.0 : -1.0, p = c->virt[i] ? z[c->voff[i]] : 0.0,
               h = z[c->toff[i]] / (N - 1), t0 = phase_t0(c, z, i), g;
        for (int k = 0; k + 1 < N && st == HES_OK; k++, row++) {
            const double *xk = z + c->xoff[i] + (size_t)k * n;
            set_inputs(c, z, i, k, 0);
            if ((st = hes__guard(sys, c->tr[i], t0 + k * h, xk, &g)) != HES_OK)
                break;
            cv[row] = sg * (g + p);
            if (!jac)
                continue;
            if ((st = hes__guard_dx(sys, c->tr[i], t0 + k * h, xk, gx)) != HES_OK)
                break;
            for (int r = 0; r < n; r++)
                jac[(size_t)row + (size_t)(c->xoff[i] + k * n + r) * ni] = sg * gx[r];
            if (c->virt[i])
                jac[(size_t)row + (size_t)c->voff[i] * ni] = sg;
        }
    }
    return st;
}

hes_status hes_colloc_path(hes_colloc *c, const double *z, double *cv, double *jac)
{
    int ni = c->ni, row = 0, nm = c->sys->nmax;
    hes_status st = HES_OK;
    if (jac)
        memset(jac, 0, sizeof(double) * (size_t)ni * (size_t)c->nv);
    if (ni == 0)
        return HES_OK;
    put_params(c, z);
    double *x = c->work, *vp = x + nm, *vm = vp + 64;
    for (int i = 0; i < c->n_phases && st == HES_OK; i++) {
        int n = c->dim[i], N = c->nn[i];
        double h = z[c->toff[i]] / (N - 1), t0 = phase_t0(c, z, i);
        for (int k = 0; k < N && st == HES_OK; k++) {
            int kind = node_kind(c, i, k), np = path_count(c, c->mode[i], kind);
            if (np == 0 || np > 64)
                continue;
            const double *xk = z + c->xoff[i] + (size_t)k * n;
            set_inputs(c, z, i, k, 0);
            if ((st = path_eval(c, c->mode[i], kind, t0 + k * h, xk, cv + row)) != HES_OK)
                break;
            for (int r = 0; jac && r < n && st == HES_OK; r++) {
                double hh = hes__fd_step(xk[r]);
                memcpy(x, xk, sizeof(double) * (size_t)n);
                x[r] = xk[r] + hh;
                st = path_eval(c, c->mode[i], kind, t0 + k * h, x, vp);
                x[r] = xk[r] - hh;
                if (st == HES_OK)
                    st = path_eval(c, c->mode[i], kind, t0 + k * h, x, vm);
                for (int q = 0; st == HES_OK && q < np; q++)
                    jac[(size_t)(row + q) + (size_t)(c->xoff[i] + k * n + r) * ni] =
                        (vp[q] - vm[q]) / (2 * hh);
            }
            row += np;
        }
    }
    if (st == HES_OK && c->spec)
        st = crossing_constraints(c, z, cv, jac, row);
    if (st == HES_OK && c->spec)
        st = order_constraints(c, z, cv, jac, row + crossing_count(c));
    return st;
}

double hes_colloc_energy(const hes_colloc *c, const double *z, double *grad)
{
    double e = 0;
    int m = c->n_in;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)c->nv);
    for (int i = 0; i < c->n_phases && m > 0; i++) {
        const double *U = z + c->uoff[i];
        double T = z[c->toff[i]];
        if (c->urows[i] == 1) {
            for (int q = 0; q < m; q++) {
                e += T * U[q] * U[q];
                if (grad) {
                    grad[c->uoff[i] + q] += 2 * T * U[q];
                    grad[c->toff[i]] += U[q] * U[q];
                }
            }
            continue;
        }
        int N = c->nn[i];
        double h = T / (N - 1);
        for (int k = 0; k + 1 < N; k++)
            for (int q = 0; q < m; q++) { /* integral of the squared linear interpolant */
                double a = U[(size_t)k * m + q], b = U[(size_t)(k + 1) * m + q],
                       s = (a * a + a * b + b * b) / 3;
                e += h * s;
                if (grad) {
                    grad[c->uoff[i] + k * m + q] += h / 3 * (2 * a + b);
                    grad[c->uoff[i] + (k + 1) * m + q] += h / 3 * (a + 2 * b);
                    grad[c->toff[i]] += s / (N - 1);
                }
            }
    }
    return e;
}

double hes_colloc_roughness(const hes_colloc *c, const double *z, double *grad)
{
    double r = 0;
    int m = c->n_in;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)c->nv);
    for (int i = 0; i < c->n_phases && m > 0; i++) {
        if (c->urows[i] < 2)
            continue;
        const double *U = z + c->uoff[i];
        int N = c->nn[i];
        double T = z[c->toff[i]], h = T / (N - 1), ri = 0;
        for (int k = 0; k + 1 < N; k++)
            for (int q = 0; q < m; q++) {
                double d = U[(size_t)(k + 1) * m + q] - U[(size_t)k * m + q];
                ri += d * d / h;
                if (grad) {
                    grad[c->uoff[i] + (k + 1) * m + q] += 2 * d / h;
                    grad[c->uoff[i] + k * m + q] -= 2 * d / h;
                }
            }
        r += ri;
        if (grad)
            grad[c->toff[i]] += -ri / T;
    }
    return r;
}

/* ---------------------------------------------------- initial guesses */

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
            set_inputs(c, z, i, N - 1, 0);
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
    double w = (T - t_turn) / count;
    for (int q = 0; q < count; q++)
        dur[q] = q == 0 ? t_turn + w : w;
}

hes_status hes_colloc_guess(hes_colloc *c, double *z)
{
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
    hes_sim_opts opts = hes_sim_opts_default();
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
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    char msg[256];
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
    hes_model *dm = NULL;
    hes_system *ds = NULL;
    hes_traj traj;
    memset(&traj, 0, sizeof traj);
    if (hes_gait_model(g, m, &dm, msg, sizeof msg) != HES_OK)
        return hes__fail(sys, HES_EINVAL, "the initial gait: %s", msg);
    if (!(ds = hes_system_create(dm))) {
        hes_gait_model_free(dm);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    hes_settings set = hes_system_get_settings(ds);
    set.rtol = set.atol = 1e-10;
    hes_system_set_settings(ds, &set);
    hes_sim_opts opts = hes_sim_opts_default();
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
    hes_gait_model_free(dm);
    return st;
}

hes_status hes_colloc_gait(hes_colloc *c, const double *z, hes_gait *g)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    memset(g, 0, sizeof *g);
    put_params(c, z);
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
            double *F = c->work, *gx = F + sys->nmax, te = phase_t0(c, z, i) + z[c->toff[i]], d = 0;
            const double *xe = z + c->xoff[i] + (size_t)(c->nn[i] - 1) * c->dim[i];
            set_inputs(c, z, i, c->nn[i] - 1, 0);
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
        put_params(c, z);
        memcpy(ph->u, z + c->uoff[i], sizeof(double) * (size_t)(ph->u_rows * c->n_in));
    }
    if (c->n_in)
        g->energy = hes_colloc_energy(c, z, NULL);
    return HES_OK;
}

/* ------------------------------------------------------------ solving */

typedef struct {
    hes_colloc *c;
    double *cv, *jac;
    hes_status err;
} solve_ctx;

/* Where the model refuses a trial point of the NLP (an invalid impact, a
 * failed callback) the constraints are reported as badly violated, so that
 * SLSQP's line search steps back; the final point is checked separately. */
#define FAILED_POINT 1e6
static void fail_point(unsigned m, unsigned n, double *result, double *grad)
{
    for (unsigned i = 0; i < m; i++)
        result[i] = FAILED_POINT;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)m * n);
}

static void equality(unsigned m, double *result, unsigned n, const double *x, double *grad,
                     void *data)
{
    solve_ctx *s = data;
    hes_status st = hes_colloc_constraints(s->c, x, result, grad ? s->jac : NULL);
    if (st != HES_OK) { /* e.g. an impact law refusing the state: a step too far */
        fail_point(m, n, result, grad);
        return;
    }
    double v = 0;
    for (unsigned i = 0; i < m; i++)
        v = fmax(v, fabs(result[i]));
    s->c->last_violation = v;
    if (grad && s->c->track && v < 1e-2 && s->c->last_cost < s->c->cand_cost) {
        memcpy(s->c->cand, x, sizeof(double) * n);
        s->c->cand_cost = s->c->last_cost;
        s->c->cand_valid = 1;
    }
    if (grad) /* NLopt wants row-major m x n */
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = s->jac[i + (size_t)j * m];
}

/* path constraints c >= 0 as NLopt's -c <= 0 */
static void inequality(unsigned m, double *result, unsigned n, const double *x, double *grad,
                       void *data)
{
    solve_ctx *s = data;
    hes_status st = hes_colloc_path(s->c, x, result, grad ? s->jac : NULL);
    if (st != HES_OK) {
        fail_point(m, n, result, grad);
        return;
    }
    for (unsigned i = 0; i < m; i++)
        result[i] = -result[i];
    if (grad)
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = -s->jac[i + (size_t)j * m];
}
/* ------------------------------------------- psi of the collocated orbit */

/*
 * The variational matrix of one Hermite-Simpson step, consistent with the
 * discretisation: the step is the implicit map d(X_k, X_k+1) = 0, so
 * dX_k+1/dX_k = -(dd/dX_k+1)^-1 dd/dX_k (implicit function theorem).  The
 * factors of the monodromy are these step matrices, the saltation matrix at
 * every phase end, and for the last (section) event of an autonomous orbit
 * the section matrix S of the return-map Jacobian P = S Q.
 */
static hes_status step_matrix(hes_colloc *c, const double *z, int i, int k, double *G)
{
    hes_system *sys = c->sys;
    int n = c->dim[i], md = c->mode[i], N = c->nn[i], nm = sys->nmax;
    double T = z[c->toff[i]], h = T / (N - 1), t0 = phase_t0(c, z, i);
    const double *xk = z + c->xoff[i] + (size_t)k * n, *xk1 = xk + n;
    double *w = c->work, *fk = w, *fk1 = fk + nm, *xm = fk1 + nm, *Jk = xm + nm,
           *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm, *Mx = Jm + (size_t)nm * nm,
           *D0 = Mx + (size_t)nm * nm, *D1 = D0 + (size_t)nm * nm, *E = D1 + (size_t)nm * nm;
    int *ipiv = (int *)(E + (size_t)nm * nm);
    hes_status st;
    set_inputs(c, z, i, k, 0);
    if ((st = hes__field(sys, md, t0 + k * h, xk, fk)) != HES_OK ||
        (st = hes__field_dx(sys, md, t0 + k * h, xk, Jk)) != HES_OK)
        return st;
    set_inputs(c, z, i, k + 1, 0);
    if ((st = hes__field(sys, md, t0 + (k + 1) * h, xk1, fk1)) != HES_OK ||
        (st = hes__field_dx(sys, md, t0 + (k + 1) * h, xk1, Jk1)) != HES_OK)
        return st;
    for (int r = 0; r < n; r++)
        xm[r] = 0.5 * (xk[r] + xk1[r]) + h / 8 * (fk[r] - fk1[r]);
    set_inputs(c, z, i, k, 1);
    if ((st = hes__field_dx(sys, md, t0 + (k + 0.5) * h, xm, Jm)) != HES_OK)
        return st;
    defect_state_blocks(n, h, Jk, Jk1, Jm, Mx, E, D0, D1);
    for (int q = 0; q < n * n; q++)
        G[q] = -D0[q];
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, n, n, D1, n, ipiv, G, n) != 0)
        return hes__fail(sys, HES_ESOLVER, "singular Hermite-Simpson step (phase %d, interval %d)", i, k);
    return HES_OK;
}

/* The clock-local saltation matrix at the end of phase i (inputs or
 * virtual events: the next phase's inputs start on their own clock, so the
 * event-time shift is not carried into the next phase):
 *   DxR - (DxR F_I + DtR) Dxg / (Dtg + Dxg F_I), identity reset if virtual. */
static hes_status clock_saltation(hes_colloc *c, const double *z, int i, double *G)
{
    hes_system *sys = c->sys;
    int n = c->dim[i], nj = c->dim[(i + 1) % c->n_phases], tr = c->tr[i], N = c->nn[i];
    double te = phase_t0(c, z, i) + z[c->toff[i]];
    const double *xe = z + c->xoff[i] + (size_t)(N - 1) * n;
    double *buf = malloc(sizeof(double) * (size_t)(2 * n + nj + nj * n));
    if (!buf)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *F = buf, *gx = F + n, *DtR = gx + n, *DR = DtR + nj, den, scale;
    hes_status st;
    set_inputs(c, z, i, N - 1, 0);
    /* a virtual event's guard is the physical one plus a constant offset:
     * the same derivatives */
    if ((st = hes__guard_rate(sys, tr, te, xe, F, gx, &den, &scale)) != HES_OK)
        goto out;
    if (hes__grazing(sys, den, scale)) {
        st = hes__fail(sys, HES_EGRAZING, "the event ending phase %d is reached tangentially "
                       "(|Dtg + Dxg F| = %.3g): saltation matrix undefined", i, fabs(den));
        goto out;
    }
    if (c->virt[i]) {
        memset(DR, 0, sizeof(double) * (size_t)nj * n);
        memset(DtR, 0, sizeof(double) * (size_t)nj);
        for (int r = 0; r < n; r++)
            DR[r + (size_t)r * nj] = 1.0;
    } else if ((st = hes__reset_dx(sys, tr, te, xe, DR)) != HES_OK ||
               (st = hes__reset_dt(sys, tr, te, xe, DtR)) != HES_OK) {
        goto out;
    }
    hes__saltation_formula(n, nj, DR, DtR, F, gx, den, NULL, G);
out:
    free(buf);
    return st;
}

/* Factor f of the list: intervals of phase 0, its event, intervals of
 * phase 1, ...; event factors of an autonomous orbit's last phase are S. */
typedef struct {
    int phase, interval;     /* interval -1: the event */
    int rows, cols;
} factor_id;

static int factor_list(const hes_colloc *c, factor_id *f)
{
    int nf = 0, P = c->n_phases;
    for (int i = 0; i < P; i++) {
        for (int k = 0; k + 1 < c->nn[i]; k++)
            f[nf++] = (factor_id){ i, k, c->dim[i], c->dim[i] };
        f[nf++] = (factor_id){ i, -1, c->dim[(i + 1) % P], c->dim[i] };
    }
    return nf;
}

static hes_status factor_eval(hes_colloc *c, const double *z, const factor_id *f, double *G,
                              double *normal)
{
    hes_system *sys = c->sys;
    put_params(c, z);
    if (f->interval >= 0)
        return step_matrix(c, z, f->phase, f->interval, G);
    int i = f->phase, n = c->dim[i];
    double te = phase_t0(c, z, i) + z[c->toff[i]];
    const double *xe = z + c->xoff[i] + (size_t)(c->nn[i] - 1) * n;
    set_inputs(c, z, i, c->nn[i] - 1, 0);
    if (i == c->n_phases - 1)
        return hes__section_matrix(sys, c->tr[i], te, xe, G, normal);
    if (c->phase_clock)
        return clock_saltation(c, z, i, G);
    return hes_saltation(sys, c->tr[i], te, xe, G);
}

/* Decision variables a factor depends on (states of its nodes, durations
 * on its clock, parameters); returns their number. */
static int factor_vars(const hes_colloc *c, const factor_id *f, int *v)
{
    int nv = 0, i = f->phase, n = c->dim[i];
    int first = f->interval >= 0 ? f->interval : c->nn[i] - 1, count = f->interval >= 0 ? 2 : 1;
    for (int q = 0; q < count * n; q++)
        v[nv++] = c->xoff[i] + first * n + q;
    for (int j = c->clock_start[i]; j <= i; j++)
        v[nv++] = c->toff[j];
    for (int q = 0; q < c->n_fp; q++)
        v[nv++] = c->poff + q;
    if (c->urows[i] == 1)
        count = 1, first = 0;
    for (int q = 0; q < count * c->n_in; q++)
        v[nv++] = c->uoff[i] + first * c->n_in + q;
    return nv;
}

static hes_status colloc_measure(hes_colloc *c, const double *z, hes_measure measure,
                                 double *value, double *grad, int *fallback);

hes_status hes_colloc_return_map(hes_colloc *c, const double *z, double *P)
{
    double psi;
    c->ret_map = P;
    hes_status st = colloc_measure(c, z, HES_MEASURE_PSI, &psi, NULL, NULL);
    c->ret_map = NULL;
    return st;
}

hes_status hes_colloc_psi(hes_colloc *c, const double *z, double *psi, double *grad, int *fallback)
{
    return colloc_measure(c, z, HES_MEASURE_PSI, psi, grad, fallback);
}

hes_status hes_colloc_measure(hes_colloc *c, const double *z, hes_measure measure, double *value,
                              double *grad, int *fallback)
{
    if (measure != HES_MEASURE_PSI && measure != HES_MEASURE_SMOOTH)
        return hes__fail(c->sys, HES_EINVAL, "unknown stability measure %d", (int)measure);
    return colloc_measure(c, z, measure, value, grad, fallback);
}

static hes_status colloc_measure(hes_colloc *c, const double *z, hes_measure measure,
                                 double *value, double *grad, int *fallback)
{
    hes_system *sys = c->sys;
    int nm = sys->nmax, n0 = c->dim[0], P = c->n_phases;
    int nfac = 0;
    for (int i = 0; i < P; i++)
        nfac += c->nn[i];
    size_t mm = (size_t)nm * nm;
    factor_id *F = malloc(sizeof *F * (size_t)nfac);
    double *G = malloc(sizeof(double) * mm * (size_t)nfac), *cur = malloc(sizeof(double) * 6 * mm + 8 * (size_t)nm);
    int *vars = malloc(sizeof(int) * (size_t)(2 * nm + P + c->n_fp + 2 * c->n_in + 1));
    double *B = NULL, *zz = NULL, weights[64];
    hes_factor *GF = NULL;
    hes_status st = HES_OK;
    hes_stability stab;
    memset(&stab, 0, sizeof stab);
    if (fallback)
        *fallback = 0;
    if (!F || !G || !cur || !vars || n0 > 64) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    double *nxt = cur + mm, *normal = nxt + mm, *M = normal + nm, *dG = M + mm;
    double *x = dG + mm;
    nfac = factor_list(c, F);
    for (int f = 0; f < nfac && st == HES_OK; f++)
        st = factor_eval(c, z, &F[f], G + (size_t)f * mm, normal);
    if (st != HES_OK)
        goto out;
    /* M = G_last ... G_1 (the last is S: M is the return-map Jacobian) */
    int rows = n0;
    memset(cur, 0, sizeof(double) * mm);
    for (int r = 0; r < n0; r++)
        cur[r + (size_t)r * n0] = 1.0;
    for (int f = 0; f < nfac; f++) {
        hes__matmul(F[f].rows, rows, n0, G + (size_t)f * mm, cur, nxt);
        rows = F[f].rows;
        memcpy(cur, nxt, sizeof(double) * (size_t)rows * n0);
    }
    memcpy(M, cur, sizeof(double) * (size_t)n0 * n0);
    if (c->ret_map)
        memcpy(c->ret_map, M, sizeof(double) * (size_t)n0 * n0);
    hes_monodromy view;
    memset(&view, 0, sizeof view);
    view.n = n0;
    view.autonomous = 1;
    view.phi = view.proj = M;
    view.normal = normal;
    if ((st = hes_stability_compute(&view, &stab)) != HES_OK) {
        st = hes__fail(sys, st, "multipliers of the collocated orbit");
        goto out;
    }
    *value = hes__measure(stab.abs, stab.n_mult, measure, weights);
    if (!grad)
        goto out;
    memset(grad, 0, sizeof(double) * (size_t)c->nv);
    /* the multipliers the derivative needs, each simple and well separated */
    int use[64], nuse = 0, repeated = 0;
    double buf[4 * 64];
    for (int k = 0; k < stab.n_mult; k++) {
        if (weights[k] == 0.0)
            continue;
        repeated |= hes__eig_repeated(&stab, stab.order[k], buf);
        use[nuse++] = k;
    }
    if (!(zz = malloc(sizeof(double) * (size_t)c->nv))) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(zz, z, sizeof(double) * (size_t)c->nv);
    if (repeated) { /* central differences of the measure in every variable */
        if (fallback)
            *fallback = 1;
        for (int v = 0; v < c->nv && st == HES_OK; v++) {
            double h = 1e-6 * fmax(1.0, fabs(z[v])), pp = 0, pm = 0;
            zz[v] = z[v] + h;
            st = colloc_measure(c, zz, measure, &pp, NULL, NULL);
            zz[v] = z[v] - h;
            if (st == HES_OK)
                st = colloc_measure(c, zz, measure, &pm, NULL, NULL);
            zz[v] = z[v];
            grad[v] = (pp - pm) / (2 * h);
        }
        put_params(c, z);
        goto out;
    }
    /* eigenvalue perturbation for each multiplier used (eigsens.c): the
     * sweeps once per multiplier, then for every factor and every variable
     * it depends on, d|lambda| from a_f dG_f b_f */
    size_t blk = (size_t)nfac * nm;
    hes__eig_sens es[64];
    if (!(B = malloc(sizeof(double) * 4 * blk * (size_t)(nuse > 0 ? nuse : 1))) ||
        !(GF = malloc(sizeof *GF * (size_t)nfac))) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    for (int f = 0; f < nfac; f++)
        GF[f] = (hes_factor){ .rows = F[f].rows, .cols = F[f].cols, .m = G + (size_t)f * mm };
    for (int u = 0; u < nuse; u++)
        hes__eig_sens_init(&es[u], &stab, stab.order[use[u]], nfac, GF, nm, B + 4 * blk * u);
    for (int f = 0; f < nfac && st == HES_OK; f++) {
        int nvar = factor_vars(c, &F[f], vars), R = F[f].rows, C = F[f].cols;
        for (int q = 0; q < nvar && st == HES_OK; q++) {
            int v = vars[q];
            double h = hes__fd_step(z[v]);
            zz[v] = z[v] + h;
            st = factor_eval(c, zz, &F[f], dG, x);
            zz[v] = z[v] - h;
            if (st == HES_OK)
                st = factor_eval(c, zz, &F[f], nxt, x);
            zz[v] = z[v];
            if (st != HES_OK)
                break;
            for (int e = 0; e < R * C; e++)
                dG[e] = (dG[e] - nxt[e]) / (2 * h);
            for (int u = 0; u < nuse; u++) {
                double nr = 0, ni = 0;
                hes__eig_sens_term(&es[u], f, R, C, dG, &nr, &ni);
                grad[v] += weights[use[u]] * hes__eig_sens_modulus(&es[u], nr, ni);
            }
        }
    }
    put_params(c, z);
out:
    hes_stability_free(&stab);
    free(B);
    free(GF);
    free(zz);
    free(F);
    free(G);
    free(cur);
    free(vars);
    return st;
}

/* ------------------------------------------- the cost (problem 8) */

typedef struct {
    hes_colloc *c;
    hes_colloc_objective objective;
    double weight;
    int evaluations, fallbacks;
    double last_psi;
    hes_status err;
    double *last_x;              /* the last iterate (cost with gradient), or NULL */
    int have_last;
} cost_ctx;

static double cost_function(unsigned n, const double *x, double *grad, void *data)
{
    cost_ctx *p = data;
    hes_colloc *c = p->c;
    double cost = 0, psi = NAN;
    int fb = 0;
    p->evaluations++;
    if (grad)
        memset(grad, 0, sizeof(double) * n);
    if (p->objective == HES_COLLOC_STABILITY || p->objective == HES_COLLOC_WEIGHTED) {
        hes_status st = colloc_measure(c, x, c->measure, &psi, grad, &fb);
        if (st != HES_OK) { /* see fail_point */
            if (grad)
                memset(grad, 0, sizeof(double) * n);
            return FAILED_POINT;
        }
        p->fallbacks += fb;
        p->last_psi = psi;
        cost = psi;
        if (psi < c->psi_floor) { /* flat below the floor */
            cost = c->psi_floor;
            if (grad)
                memset(grad, 0, sizeof(double) * n);
        }
    }
    if (!isnan(psi) && c->smooth > 0 && c->n_in > 0) { /* input-rate regularisation */
        double *gr = grad ? malloc(sizeof(double) * n) : NULL;
        cost += c->smooth * hes_colloc_roughness(c, x, gr);
        for (unsigned j = 0; gr && j < n; j++)
            grad[j] += c->smooth * gr[j];
        free(gr);
    }
    if (p->objective == HES_COLLOC_ENERGY || p->objective == HES_COLLOC_WEIGHTED) {
        double *ge = grad ? malloc(sizeof(double) * n) : NULL;
        double w = p->objective == HES_COLLOC_ENERGY ? 1.0 : p->weight;
        cost += w * hes_colloc_energy(c, x, ge);
        for (unsigned j = 0; ge && j < n; j++)
            grad[j] += w * ge[j];
        free(ge);
    }
    c->last_cost = cost;
    if (grad && p->last_x) {
        memcpy(p->last_x, x, sizeof(double) * n);
        p->have_last = 1;
    }
    if (grad && c->progress)
        c->progress(c->progress_ctx, p->evaluations, cost, c->last_violation, psi);
    return cost;
}

/* The NLP of the collocation: SLSQP on the cost subject to the equality
 * constraints, the path constraints and the bounds (durations >= 0 or as
 * given, parameters, inputs, first state); the final constraint violation
 * (equalities and path) into *violation.  ftol (relative) 0 for a zero
 * objective, whose "relative change" is always 0. */
static hes_status run_nlp(hes_colloc *c, double *z, double tol, cost_ctx *cc, double ftol,
                          int maxeval, double *violation, const char *what)
{
    hes_system *sys = c->sys;
    int nv = c->nv, nc = c->nc, ni = c->ni, nr = nc > ni ? nc : ni;
    solve_ctx s = { c, malloc(sizeof(double) * (size_t)nr), malloc(sizeof(double) * (size_t)nr * nv),
                    HES_OK };
    double *ctol = malloc(sizeof(double) * (size_t)nr), *b = malloc(sizeof(double) * (size_t)nv);
    nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, (unsigned)nv);
    hes_status st = HES_OK;
    if (!s.cv || !s.jac || !ctol || !b || !opt) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < nr; i++)
        ctol[i] = tol;
    for (int side = 0; side < 2; side++) { /* lower, then upper bounds */
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
        for (int j = 0; j < nv; j++) /* a start outside the bounds is moved in */
            if (side ? z[j] > b[j] : z[j] < b[j])
                z[j] = b[j];
        if (side)
            nlopt_set_upper_bounds(opt, b);
        else
            nlopt_set_lower_bounds(opt, b);
    }
    nlopt_set_min_objective(opt, cost_function, cc);
    nlopt_add_equality_mconstraint(opt, (unsigned)nc, equality, &s, ctol);
    if (ni > 0)
        nlopt_add_inequality_mconstraint(opt, (unsigned)ni, inequality, &s, ctol);
    nlopt_set_xtol_rel(opt, 1e-14);
    nlopt_set_ftol_rel(opt, ftol);
    nlopt_set_maxeval(opt, maxeval);
    double f;
    c->last_violation = NAN;
    nlopt_result nr_ = nlopt_optimize(opt, z, &f);
    if (s.err != HES_OK || cc->err != HES_OK) {
        st = s.err != HES_OK ? s.err : cc->err;
        goto out;
    }
    if ((st = hes_colloc_constraints(c, z, s.cv, NULL)) != HES_OK)
        goto out;
    double v = 0;
    for (int i = 0; i < nc; i++)
        v = fmax(v, fabs(s.cv[i]));
    if (ni > 0 && (st = hes_colloc_path(c, z, s.cv, NULL)) != HES_OK)
        goto out;
    for (int i = 0; i < ni; i++)
        v = fmax(v, -s.cv[i]);
    *violation = v;
    if (!(v <= 10 * tol))
        st = hes__fail(sys, HES_ENOORBIT, "%s did not converge: constraint violation %.3g "
                       "(NLopt: %s)", what, v, nlopt_result_to_string(nr_));
out:
    if (opt)
        nlopt_destroy(opt);
    free(s.cv);
    free(s.jac);
    free(ctol);
    free(b);
    put_params(c, z);
    return st;
}

hes_status hes_colloc_solve(hes_colloc *c, double *z, double tol, double *violation)
{
    cost_ctx cc = { c, HES_COLLOC_FEASIBLE, 0.0, 0, 0, NAN, HES_OK, NULL, 0 };
    return run_nlp(c, z, tol, &cc, 0.0, 500, violation, "collocation");
}

/* The largest violation of the equality and path constraints at z, or
 * HUGE_VAL where the model refuses z. */
static double max_violation(hes_colloc *c, const double *z)
{
    int nr = c->nc > c->ni ? c->nc : c->ni;
    double *cv = malloc(sizeof(double) * (size_t)(nr + 1)), v = 0;
    if (!cv || hes_colloc_constraints(c, z, cv, NULL) != HES_OK) {
        free(cv);
        return HUGE_VAL;
    }
    for (int i = 0; i < c->nc; i++)
        v = fmax(v, fabs(cv[i]));
    if (c->ni > 0 && hes_colloc_path(c, z, cv, NULL) != HES_OK)
        v = HUGE_VAL;
    for (int i = 0; i < c->ni && v < HUGE_VAL; i++)
        v = fmax(v, -cv[i]);
    free(cv);
    return v;
}

/* Takes cand as the new best when it is feasible and cheaper. */
static int consider(hes_colloc *c, const double *cand, hes_colloc_objective objective,
                    double weight, double tol, double *f_best, double *z_best)
{
    cost_ctx probe = { c, objective, weight, 0, 0, NAN, HES_OK, NULL, 0 };
    if (!(max_violation(c, cand) <= 10 * tol))
        return 0;
    double f = cost_function((unsigned)c->nv, cand, NULL, &probe);
    if (!(f < FAILED_POINT) || (*f_best < HUGE_VAL && !(f < *f_best - 1e-9 * fabs(*f_best))))
        return 0;
    *f_best = f;
    memcpy(z_best, cand, sizeof(double) * (size_t)c->nv);
    return 1;
}

hes_status hes_colloc_minimize(hes_colloc *c, double *z, hes_colloc_objective objective,
                               double weight, double tol, int maxeval, hes_colloc_result *res)
{
    static const char *const what[] = { "collocation", "collocation with the energy cost",
                                        "collocation with psi in the cost",
                                        "collocation with psi and energy in the cost" };
    cost_ctx cc = { c, objective, weight, 0, 0, NAN, HES_OK, NULL, 0 };
    memset(res, 0, sizeof *res);
    res->psi = res->energy = res->cost = res->violation = NAN;
    if ((int)objective < 0 || objective > HES_COLLOC_WEIGHTED)
        return hes__fail(c->sys, HES_EINVAL, "unknown collocation objective %d", (int)objective);
    size_t nv = (size_t)c->nv;
    double *zl = malloc(sizeof(double) * 3 * nv);
    if (!zl)
        return hes__fail(c->sys, HES_ENOMEM, "out of memory");
    double *zr = zl + nv, *zbest = zr + nv, f_best = HUGE_VAL, viol = NAN;
    hes_status st = HES_OK;
    cc.last_x = zl;
    if (!c->cand && !(c->cand = malloc(sizeof(double) * nv))) {
        free(zl);
        return hes__fail(c->sys, HES_ENOMEM, "out of memory");
    }
    /* SLSQP in rounds, each from the best feasible point so far with a fresh
     * quasi-Newton matrix (psi is not smooth where multipliers cross, and a
     * stale BFGS model stalls there), until a round brings nothing.  NLopt
     * returns the best point meeting the constraint tolerances; a round whose
     * iterates stay slightly infeasible also offers its last iterate and its
     * cheapest nearly feasible one (violation < 1e-2), each made feasible by a
     * feasibility solve. */
    consider(c, z, objective, weight, tol, &f_best, zbest);
    int round_max = objective == HES_COLLOC_FEASIBLE ? maxeval : (maxeval / 4 > 200 ? maxeval / 4 : 200);
    while (cc.evaluations < maxeval) {
        int budget = maxeval - cc.evaluations < round_max ? maxeval - cc.evaluations : round_max;
        int before = cc.evaluations, improved = 0;
        memcpy(zr, f_best < HUGE_VAL ? zbest : z, sizeof(double) * nv);
        cc.have_last = 0;
        c->cand_valid = 0;
        c->cand_cost = HUGE_VAL;
        c->last_cost = HUGE_VAL;
        c->track = objective != HES_COLLOC_FEASIBLE;
        st = run_nlp(c, zr, tol, &cc, objective == HES_COLLOC_FEASIBLE ? 0.0 : 1e-10, budget,
                     &viol, what[objective]);
        c->track = 0;
        if (st == HES_OK || st == HES_ENOORBIT)
            improved |= consider(c, zr, objective, weight, tol, &f_best, zbest);
        for (int which = 0; objective != HES_COLLOC_FEASIBLE && which < 2; which++) {
            if (which == 0 ? !c->cand_valid : !cc.have_last)
                continue;
            memcpy(zr, which == 0 ? c->cand : zl, sizeof(double) * nv);
            if (hes_colloc_solve(c, zr, tol, &viol) == HES_OK)
                improved |= consider(c, zr, objective, weight, tol, &f_best, zbest);
        }
        if (objective == HES_COLLOC_FEASIBLE || !improved || cc.evaluations == before)
            break;
    }
    res->evaluations = cc.evaluations;
    res->fallbacks = cc.fallbacks;
    if (f_best < HUGE_VAL) {
        memcpy(z, zbest, sizeof(double) * nv);
        st = HES_OK;
    } else if (st == HES_OK) {
        st = hes__fail(c->sys, HES_ENOORBIT, "%s found no feasible point", what[objective]);
    }
    free(zl);
    put_params(c, z);
    res->violation = max_violation(c, z);
    if (st == HES_OK) {
        res->energy = hes_colloc_energy(c, z, NULL);
        st = hes_colloc_psi(c, z, &res->psi, NULL, NULL);
        put_params(c, z);
        res->roughness = hes_colloc_roughness(c, z, NULL);
        cost_ctx probe = { c, objective, weight, 0, 0, NAN, HES_OK, NULL, 0 };
        res->cost = cost_function((unsigned)c->nv, z, NULL, &probe);
    }
    return st;
}

hes_status hes_colloc_optimize(hes_colloc *c, double *z, double tol, double *psi,
                               double *violation, int *evaluations)
{
    hes_colloc_result r;
    hes_status st = hes_colloc_minimize(c, z, HES_COLLOC_STABILITY, 0.0, tol, 1000, &r);
    *psi = r.psi;
    *violation = r.violation;
    if (evaluations)
        *evaluations = r.evaluations;
    return st;
}

double hes_colloc_duration(const hes_colloc *c, const double *z, int phase)
{
    return z[c->toff[phase]];
}

const double *hes_colloc_state(const hes_colloc *c, const double *z, int phase, int node)
{
    return z + c->xoff[phase] + (size_t)node * c->dim[phase];
}

hes_status hes_colloc_set_design(hes_colloc *c, int n, const char *const *names,
                                 const double *lo, const double *hi)
{
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
    return HES_OK;
}
