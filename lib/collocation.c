/*
 * collocation.c - multi-phase direct collocation of a periodic orbit over the
 * fixed event sequence of the model's orbit spec (core paper Sec. III-E,
 * problem (8)), by Hermite-Simpson in compressed form: fourth order, one
 * vector-field evaluation per interval midpoint, and defects that depend only
 * on neighbouring nodes, which keeps the constraint Jacobian block-sparse.
 *
 * Decision variables: for every phase i (the mode before event i of the
 * sequence) the states X_i,0 .. X_i,N-1 at N equally spaced nodes and the
 * duration T_i, then the parameters the orbit spec solves for.  Equality
 * constraints, in order:
 *   defects   X_k+1 - X_k - h/6 (f_k + 4 f_m + f_k+1) = 0,
 *             x_m = (X_k + X_k+1)/2 + h/8 (f_k - f_k+1),  h = T_i / (N - 1);
 *   event     g_i(t_end, X_i,N-1) = 0;
 *   reset     X_i+1,0 - R_i(t_end, X_i,N-1) = 0 (the last phase wraps to the
 *             first: periodicity);
 *   anchor    X_0,0[j] = the orbit spec's value for every residual component
 *             j that is not a free state (as the shooting solver fixes it).
 * Model time starts at 0 on the first phase and restarts after a
 * clock-resetting event.  This first version handles autonomous orbit specs
 * without inputs; the constraint Jacobian is exact (chain rule through the
 * model's Jacobians; derivatives in time and parameters by central
 * differences of the model callbacks).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <nlopt.h>
#include <lapacke.h>

#include "hes_internal.h"

struct hes_colloc {
    hes_system *sys;
    int nodes, n_phases;
    int *mode, *tr, *dim;        /* per phase */
    int *xoff, *toff;            /* offsets of X_i,0 and of T_i in z */
    int *clock_start;            /* first phase after the last clock reset */
    int n_fp, *pidx, poff;       /* solved parameters, then design parameters */
    int n_solved;
    double *plo, *phi;           /* bounds of the parameters in z */
    int n_anchor, *anchor;       /* anchored components of X_0,0 */
    double *anchor_value;
    int nv, nc;
    double *work;                /* scratch */
    size_t work_len;
};

int hes_colloc_nvars(const hes_colloc *c) { return c->nv; }
int hes_colloc_ncons(const hes_colloc *c) { return c->nc; }

void hes_colloc_destroy(hes_colloc *c)
{
    if (!c)
        return;
    free(c->mode);
    free(c->pidx);
    free(c->plo);
    free(c->anchor);
    free(c->anchor_value);
    free(c->work);
    free(c);
}

hes_status hes_colloc_create(hes_system *sys, int nodes, hes_colloc **out)
{
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    *out = NULL;
    if (!o->guess || o->n_sequence < 1 || o->period_param)
        return hes__fail(sys, HES_EINVAL, "collocation needs an autonomous orbit spec with an "
                         "event sequence (model '%s')", m->name);
    if (nodes < 2)
        return hes__fail(sys, HES_EINVAL, "collocation needs at least 2 nodes per phase");
    hes_colloc *c = calloc(1, sizeof *c);
    int P = o->n_sequence;
    if (!c)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    c->sys = sys;
    c->nodes = nodes;
    c->n_phases = P;
    c->mode = malloc(sizeof(int) * 6 * (size_t)P);
    c->n_fp = c->n_solved = o->n_free_params;
    c->pidx = malloc(sizeof(int) * (size_t)(c->n_fp + HES_COLLOC_MAX_DESIGN));
    c->plo = malloc(sizeof(double) * 2 * (size_t)(c->n_fp + HES_COLLOC_MAX_DESIGN));
    c->anchor = malloc(sizeof(int) * (size_t)(o->n_residual + 1));
    c->anchor_value = malloc(sizeof(double) * (size_t)(sys->nmax + 1));
    if (!c->mode || !c->pidx || !c->plo || !c->anchor || !c->anchor_value) {
        hes_colloc_destroy(c);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    c->tr = c->mode + P;
    c->dim = c->tr + P;
    c->xoff = c->dim + P;
    c->toff = c->xoff + P;
    c->clock_start = c->toff + P;
    int off = 0, start = 0;
    for (int i = 0; i < P; i++) {
        c->tr[i] = o->sequence[i];
        c->mode[i] = m->transitions[c->tr[i]].from;
        c->dim[i] = m->modes[c->mode[i]].dim;
        c->xoff[i] = off;
        off += nodes * c->dim[i];
        c->toff[i] = off++;
        c->clock_start[i] = start;
        if (m->transitions[c->tr[i]].clock_reset)
            start = i + 1;
    }
    c->poff = off;
    c->phi = c->plo + c->n_fp + HES_COLLOC_MAX_DESIGN;
    for (int i = 0; i < c->n_fp; i++) {
        c->pidx[i] = hes_model_param_index(m, o->free_params[i]);
        c->plo[i] = m->params[c->pidx[i]].min;
        c->phi[i] = m->params[c->pidx[i]].max;
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
    int nc = 0;
    for (int i = 0; i < P; i++)
        nc += (nodes - 1) * c->dim[i] + 1 + c->dim[(i + 1) % P];
    c->nc = nc + c->n_anchor;
    int nm = sys->nmax;
    c->work_len = (size_t)nodes * (4 * nm + 2) + 16 * (size_t)nm * nm + 16 * (size_t)nm + 16;
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

/* d/dt and d/dp_j of the vector field by central differences */
static hes_status field_dt(hes_system *sys, int mode, double t, const double *x, double *out,
                           double *tmp)
{
    int n = sys->model->modes[mode].dim;
    double h = cbrt(DBL_EPSILON) * fmax(1.0, fabs(t));
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
    double p = sys->p[pj], h = cbrt(DBL_EPSILON) * fmax(1.0, fabs(p));
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

/* J[row, col] in a column-major nc x nv matrix */
#define JAC(r, col) jac[(size_t)(r) + (size_t)(col) * (size_t)nc]

hes_status hes_colloc_constraints(hes_colloc *c, const double *z, double *cv, double *jac)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    int P = c->n_phases, N = c->nodes, nc = c->nc, nm = sys->nmax, row = 0;
    hes_status st = HES_OK;
    put_params(c, z);
    if (jac)
        memset(jac, 0, sizeof(double) * (size_t)nc * (size_t)c->nv);
    double *f = c->work;                          /* N x nm field values */
    double *ft = f + (size_t)N * nm;              /* N x nm d/dt */
    double *fm = ft + (size_t)N * nm, *xm = fm + nm, *fmt = xm + nm, *tmp = fmt + nm,
           *a = tmp + nm, *b = a + nm, *R = b + nm, *gx = R + nm, *dv = gx + nm,
           *fp = dv + nm, *fpm = fp + (size_t)N * nm;
    double *Jk = fpm + nm, *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm,
           *Mx = Jm + (size_t)nm * nm, *D = Mx + (size_t)nm * nm, *DR = D + (size_t)nm * nm,
           *E2 = DR + (size_t)nm * nm;
    for (int i = 0; i < P && st == HES_OK; i++) {
        int n = c->dim[i], md = c->mode[i], tr = c->tr[i];
        double T = z[c->toff[i]], h = T / (N - 1), t0 = phase_t0(c, z, i);
        const double *X = z + c->xoff[i];
        for (int k = 0; k < N && st == HES_OK; k++) {
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
            if ((st = hes__field(sys, md, tm, xm, fm)) != HES_OK)
                break;
            for (int r = 0; r < n; r++)
                cv[row + r] = xk1[r] - xk[r] - h / 6 * (fk[r] + 4 * fm[r] + fk1[r]);
            if (!jac)
                continue;
            /* states: d/dX_k = -I - h/6 (J_k + 4 J_m (I/2 + h/8 J_k)), similarly X_k+1 */
            if ((st = hes__field_dx(sys, md, t0 + k * h, xk, Jk)) != HES_OK ||
                (st = hes__field_dx(sys, md, t0 + (k + 1) * h, xk1, Jk1)) != HES_OK ||
                (st = hes__field_dx(sys, md, tm, xm, Jm)) != HES_OK ||
                (st = field_dt(sys, md, tm, xm, fmt, tmp)) != HES_OK)
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
            /* solved parameters */
            for (int q = 0; q < c->n_fp && st == HES_OK; q++) {
                double *pk = fp, *pk1 = fp + nm;
                if ((st = param_derivative(sys, hes__field, md, c->pidx[q], t0 + k * h, xk, n, pk, tmp)) != HES_OK ||
                    (st = param_derivative(sys, hes__field, md, c->pidx[q], t0 + (k + 1) * h, xk1, n, pk1, tmp)) != HES_OK ||
                    (st = param_derivative(sys, hes__field, md, c->pidx[q], tm, xm, n, fpm, tmp)) != HES_OK)
                    break;
                for (int r = 0; r < n; r++)
                    a[r] = h / 8 * (pk[r] - pk1[r]);
                hes__matmul(n, n, 1, Jm, a, b);
                for (int r = 0; r < n; r++)
                    JAC(row + r, c->poff + q) = -h / 6 * (pk[r] + 4 * (b[r] + fpm[r]) + pk1[r]);
            }
        }
        if (st != HES_OK)
            break;
        /* event: g(t_end, X_N-1) = 0 */
        const double *xe = X + (size_t)(N - 1) * n;
        double te = t0 + T, g;
        if ((st = hes__guard(sys, tr, te, xe, &g)) != HES_OK)
            break;
        cv[row] = g;
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
        }
        row++;
        /* reset: X_next,0 - R(t_end, X_N-1) = 0 */
        int in = (i + 1) % P, nn = c->dim[in];
        if ((st = hes__reset(sys, tr, te, xe, R)) != HES_OK)
            break;
        const double *xn = z + c->xoff[in];
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
    (void)m;
    return st;
}

hes_status hes_colloc_guess(hes_colloc *c, double *z)
{
    hes_system *sys = c->sys;
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int N = c->nodes, n0 = m->modes[o->mode].dim;
    double *x0 = c->work, *x = x0 + sys->nmax;
    if (o->guess(sys->p, x0, m->data) != 0)
        return hes__fail(sys, HES_EMODEL, "the orbit's initial guess failed");
    hes_sim_opts opts = hes_sim_opts_default();
    opts.section = o->section;
    opts.n_section = 1;
    opts.sequence_only = 1;
    opts.after_transition = o->section;
    hes_traj traj;
    hes_status st = hes_simulate(sys, o->mode, 0.0, 0.0, x0, &opts, &traj);
    if (st == HES_OK && traj.n_phases != c->n_phases)
        st = hes__fail(sys, HES_EINVAL, "the simulated period has %d phases, the sequence %d",
                       traj.n_phases, c->n_phases);
    for (int i = 0; st == HES_OK && i < c->n_phases; i++) {
        const hes_phase *ph = &traj.phases[i];
        double T = ph->t1 - ph->t0;
        int n = c->dim[i];
        z[c->toff[i]] = T;
        for (int k = 0; k < N && st == HES_OK; k++) {
            st = hes_variational(sys, ph->mode, ph->tm0, T * k / (N - 1), ph->x0, x, NULL);
            memcpy(z + c->xoff[i] + (size_t)k * n, x, sizeof(double) * (size_t)n);
        }
    }
    for (int j = 0; j < c->n_fp; j++)
        z[c->poff + j] = sys->p[c->pidx[j]];
    (void)n0;
    hes_traj_free(&traj);
    return st;
}

/* ------------------------------------------------------------ solving */

typedef struct {
    hes_colloc *c;
    double *cv, *jac;
    hes_status err;
} solve_ctx;

static double zero_objective(unsigned n, const double *x, double *grad, void *data)
{
    (void)x; (void)data;
    if (grad)
        memset(grad, 0, sizeof(double) * n);
    return 0.0;
}

static void equality(unsigned m, double *result, unsigned n, const double *x, double *grad,
                     void *data)
{
    solve_ctx *s = data;
    hes_status st = hes_colloc_constraints(s->c, x, result, grad ? s->jac : NULL);
    if (st != HES_OK) {
        if (s->err == HES_OK)
            s->err = st;
        for (unsigned i = 0; i < m; i++)
            result[i] = HUGE_VAL;
        return;
    }
    if (grad) /* NLopt wants row-major m x n */
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                grad[(size_t)i * n + j] = s->jac[i + (size_t)j * m];
}

/* The NLP of the collocation: SLSQP on `objective` (with data obj) subject to
 * the equality constraints, durations >= 0, parameters within their bounds;
 * the final constraint violation into *violation.  ftol (relative) 0 for a
 * zero objective, whose "relative change" is always 0. */
static hes_status run_nlp(hes_colloc *c, double *z, double tol, nlopt_func objective, void *obj,
                          hes_status *obj_err, double ftol, int maxeval, double *violation,
                          const char *what)
{
    hes_system *sys = c->sys;
    int nv = c->nv, nc = c->nc;
    solve_ctx s = { c, malloc(sizeof(double) * (size_t)nc),
                    malloc(sizeof(double) * (size_t)nc * nv), HES_OK };
    double *ctol = malloc(sizeof(double) * (size_t)nc), *b = malloc(sizeof(double) * (size_t)nv);
    nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, (unsigned)nv);
    hes_status st = HES_OK;
    if (!s.cv || !s.jac || !ctol || !b || !opt) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < nc; i++)
        ctol[i] = tol;
    for (int side = 0; side < 2; side++) { /* lower, then upper bounds */
        for (int j = 0; j < nv; j++)
            b[j] = side ? HUGE_VAL : -HUGE_VAL;
        for (int i = 0; !side && i < c->n_phases; i++)
            b[c->toff[i]] = 0.0; /* durations */
        for (int j = 0; j < c->n_fp; j++)
            b[c->poff + j] = side ? c->phi[j] : c->plo[j];
        if (side)
            nlopt_set_upper_bounds(opt, b);
        else
            nlopt_set_lower_bounds(opt, b);
    }
    nlopt_set_min_objective(opt, objective, obj);
    nlopt_add_equality_mconstraint(opt, (unsigned)nc, equality, &s, ctol);
    nlopt_set_xtol_rel(opt, 1e-14);
    nlopt_set_ftol_rel(opt, ftol);
    nlopt_set_maxeval(opt, maxeval);
    double f;
    nlopt_result nr = nlopt_optimize(opt, z, &f);
    if (s.err != HES_OK || (obj_err && *obj_err != HES_OK)) {
        st = s.err != HES_OK ? s.err : *obj_err;
        goto out;
    }
    if ((st = hes_colloc_constraints(c, z, s.cv, NULL)) != HES_OK)
        goto out;
    double v = 0;
    for (int i = 0; i < nc; i++)
        v = fmax(v, fabs(s.cv[i]));
    *violation = v;
    if (!(v <= 10 * tol))
        st = hes__fail(sys, HES_ENOORBIT, "%s did not converge: constraint violation %.3g "
                       "(NLopt: %s)", what, v, nlopt_result_to_string(nr));
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
    return run_nlp(c, z, tol, zero_objective, NULL, NULL, 0.0, 500, violation, "collocation");
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
    int n = c->dim[i], md = c->mode[i], N = c->nodes, nm = sys->nmax;
    double T = z[c->toff[i]], h = T / (N - 1), t0 = phase_t0(c, z, i);
    const double *xk = z + c->xoff[i] + (size_t)k * n, *xk1 = xk + n;
    double *w = c->work, *fk = w, *fk1 = fk + nm, *xm = fk1 + nm, *Jk = xm + nm,
           *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm, *Mx = Jm + (size_t)nm * nm,
           *D0 = Mx + (size_t)nm * nm, *D1 = D0 + (size_t)nm * nm, *E = D1 + (size_t)nm * nm;
    int *ipiv = (int *)(E + (size_t)nm * nm);
    hes_status st;
    if ((st = hes__field(sys, md, t0 + k * h, xk, fk)) != HES_OK ||
        (st = hes__field(sys, md, t0 + (k + 1) * h, xk1, fk1)) != HES_OK)
        return st;
    for (int r = 0; r < n; r++)
        xm[r] = 0.5 * (xk[r] + xk1[r]) + h / 8 * (fk[r] - fk1[r]);
    if ((st = hes__field_dx(sys, md, t0 + k * h, xk, Jk)) != HES_OK ||
        (st = hes__field_dx(sys, md, t0 + (k + 1) * h, xk1, Jk1)) != HES_OK ||
        (st = hes__field_dx(sys, md, t0 + (k + 0.5) * h, xm, Jm)) != HES_OK)
        return st;
    defect_state_blocks(n, h, Jk, Jk1, Jm, Mx, E, D0, D1);
    for (int q = 0; q < n * n; q++)
        G[q] = -D0[q];
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, n, n, D1, n, ipiv, G, n) != 0)
        return hes__fail(sys, HES_ESOLVER, "singular Hermite-Simpson step (phase %d, interval %d)", i, k);
    return HES_OK;
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
        for (int k = 0; k + 1 < c->nodes; k++)
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
    const double *xe = z + c->xoff[i] + (size_t)(c->nodes - 1) * n;
    if (i == c->n_phases - 1)
        return hes__section_matrix(sys, c->tr[i], te, xe, G, normal);
    return hes_saltation(sys, c->tr[i], te, xe, G);
}

/* Decision variables a factor depends on (states of its nodes, durations
 * on its clock, parameters); returns their number. */
static int factor_vars(const hes_colloc *c, const factor_id *f, int *v)
{
    int nv = 0, i = f->phase, n = c->dim[i];
    int first = f->interval >= 0 ? f->interval : c->nodes - 1, count = f->interval >= 0 ? 2 : 1;
    for (int q = 0; q < count * n; q++)
        v[nv++] = c->xoff[i] + first * n + q;
    for (int j = c->clock_start[i]; j <= i; j++)
        v[nv++] = c->toff[j];
    for (int q = 0; q < c->n_fp; q++)
        v[nv++] = c->poff + q;
    return nv;
}

hes_status hes_colloc_psi(hes_colloc *c, const double *z, double *psi, double *grad, int *fallback)
{
    hes_system *sys = c->sys;
    int nm = sys->nmax, n0 = c->dim[0], P = c->n_phases;
    int nfac = P * c->nodes;
    size_t mm = (size_t)nm * nm;
    factor_id *F = malloc(sizeof *F * (size_t)nfac);
    double *G = malloc(sizeof(double) * mm * (size_t)nfac), *cur = malloc(sizeof(double) * 6 * mm + 8 * (size_t)nm);
    int *vars = malloc(sizeof(int) * (size_t)(2 * nm + P + c->n_fp + 1));
    hes_status st = HES_OK;
    hes_stability stab;
    memset(&stab, 0, sizeof stab);
    if (!F || !G || !cur || !vars) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    double *nxt = cur + mm, *normal = nxt + mm, *M = normal + nm, *dG = M + mm, *zp = NULL;
    double *ar = dG + mm, *ai = ar + nm, *br = ai + nm, *bi = br + nm, *u = bi + nm, *x = u + nm;
    (void)zp;
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
    *psi = stab.psi;
    if (fallback)
        *fallback = 0;
    if (!grad)
        goto out;
    memset(grad, 0, sizeof(double) * (size_t)c->nv);
    int j = stab.order[0];
    double buf[4 * 64];
    double cond = n0 <= 64 ? hes__eig_condition(stab.vl, stab.vr, stab.all_im, n0, j, buf) : 1.0;
    int repeated = cond > 1e5;
    for (int l = 0; l < n0 && !repeated; l++) {
        int partner = stab.all_im[j] > 0 ? j + 1 : stab.all_im[j] < 0 ? j - 1 : -1;
        if (l != j && l != partner &&
            hypot(stab.all_re[l] - stab.all_re[j], stab.all_im[l] - stab.all_im[j]) <
                1e-5 * fmax(1.0, stab.psi))
            repeated = 1;
    }
    double *zz = malloc(sizeof(double) * (size_t)c->nv);
    if (!zz) {
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(zz, z, sizeof(double) * (size_t)c->nv);
    if (repeated) { /* central differences of psi in every variable */
        if (fallback)
            *fallback = 1;
        for (int v = 0; v < c->nv && st == HES_OK; v++) {
            double h = 1e-6 * fmax(1.0, fabs(z[v])), pp = 0, pm = 0;
            zz[v] = z[v] + h;
            st = hes_colloc_psi(c, zz, &pp, NULL, NULL);
            zz[v] = z[v] - h;
            if (st == HES_OK)
                st = hes_colloc_psi(c, zz, &pm, NULL, NULL);
            zz[v] = z[v];
            grad[v] = (pp - pm) / (2 * h);
        }
        free(zz);
        put_params(c, z);
        goto out;
    }
    /* eigenvalue perturbation: sweeps b_f = G_{f-1}...G_1 v, a_f = w^H G_last...G_{f+1} */
    double lr = stab.all_re[j], li = stab.all_im[j], mod = hypot(lr, li);
    double *B = malloc(sizeof(double) * 4 * (size_t)nfac * nm);
    if (!B) {
        free(zz);
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
        goto out;
    }
    double *Br = B, *Bi = Br + (size_t)nfac * nm, *Ar = Bi + (size_t)nfac * nm, *Ai = Ar + (size_t)nfac * nm;
    hes__eigvec(stab.vr, n0, stab.all_im, j, br, bi);
    hes__eigvec(stab.vl, n0, stab.all_im, j, ar, ai);
    double dr = 0, di = 0;
    for (int r = 0; r < n0; r++) {
        dr += ar[r] * br[r] + ai[r] * bi[r];
        di += ar[r] * bi[r] - ai[r] * br[r];
    }
    memcpy(Br, br, sizeof(double) * (size_t)n0);
    memcpy(Bi, bi, sizeof(double) * (size_t)n0);
    rows = n0;
    for (int f = 0; f + 1 < nfac; f++) {
        hes__matmul(F[f].rows, rows, 1, G + (size_t)f * mm, Br + (size_t)f * nm, Br + (size_t)(f + 1) * nm);
        hes__matmul(F[f].rows, rows, 1, G + (size_t)f * mm, Bi + (size_t)f * nm, Bi + (size_t)(f + 1) * nm);
        rows = F[f].rows;
    }
    for (int r = 0; r < n0; r++) {
        Ar[(size_t)(nfac - 1) * nm + r] = ar[r];
        Ai[(size_t)(nfac - 1) * nm + r] = -ai[r];
    }
    for (int f = nfac - 1; f > 0; f--)
        for (int cc = 0; cc < F[f].cols; cc++) {
            double sr = 0, si = 0;
            for (int r = 0; r < F[f].rows; r++) {
                sr += Ar[(size_t)f * nm + r] * G[(size_t)f * mm + r + (size_t)cc * F[f].rows];
                si += Ai[(size_t)f * nm + r] * G[(size_t)f * mm + r + (size_t)cc * F[f].rows];
            }
            Ar[(size_t)(f - 1) * nm + cc] = sr;
            Ai[(size_t)(f - 1) * nm + cc] = si;
        }
    double dd = dr * dr + di * di;
    for (int f = 0; f < nfac && st == HES_OK; f++) {
        int nvar = factor_vars(c, &F[f], vars), R = F[f].rows, C = F[f].cols;
        for (int q = 0; q < nvar && st == HES_OK; q++) {
            int v = vars[q];
            double h = cbrt(DBL_EPSILON) * fmax(1.0, fabs(z[v]));
            zz[v] = z[v] + h;
            st = factor_eval(c, zz, &F[f], dG, x);
            zz[v] = z[v] - h;
            if (st == HES_OK)
                st = factor_eval(c, zz, &F[f], nxt, x);
            zz[v] = z[v];
            if (st != HES_OK)
                break;
            double nr = 0, ni = 0;
            for (int cc = 0; cc < C; cc++) {
                double gr = 0;
                for (int r = 0; r < R; r++) {
                    double d = (dG[r + (size_t)cc * R] - nxt[r + (size_t)cc * R]) / (2 * h);
                    nr += Ar[(size_t)f * nm + r] * d * Br[(size_t)f * nm + cc] -
                          Ai[(size_t)f * nm + r] * d * Bi[(size_t)f * nm + cc];
                    ni += Ar[(size_t)f * nm + r] * d * Bi[(size_t)f * nm + cc] +
                          Ai[(size_t)f * nm + r] * d * Br[(size_t)f * nm + cc];
                    gr += d;
                }
                (void)gr;
            }
            double lamr = (nr * dr + ni * di) / dd, lami = (ni * dr - nr * di) / dd;
            grad[v] += mod > 0 ? (lr * lamr + li * lami) / mod : 0.0;
        }
    }
    put_params(c, z);
    free(B);
    free(zz);
out:
    hes_stability_free(&stab);
    free(F);
    free(G);
    free(cur);
    free(vars);
    return st;
}

/* ------------------------------------------- psi in the cost (problem 8) */

typedef struct {
    hes_colloc *c;
    int evaluations, fallbacks;
    hes_status err;
} psi_ctx;

static double psi_objective(unsigned n, const double *x, double *grad, void *data)
{
    psi_ctx *p = data;
    double psi;
    int fb = 0;
    p->evaluations++;
    hes_status st = hes_colloc_psi(p->c, x, &psi, grad, &fb);
    if (st != HES_OK) {
        if (p->err == HES_OK)
            p->err = st;
        if (grad)
            memset(grad, 0, sizeof(double) * n);
        return HUGE_VAL;
    }
    p->fallbacks += fb;
    return psi;
}

hes_status hes_colloc_optimize(hes_colloc *c, double *z, double tol, double *psi,
                               double *violation, int *evaluations)
{
    psi_ctx pc = { c, 0, 0, HES_OK };
    hes_status st = run_nlp(c, z, tol, psi_objective, &pc, &pc.err, 1e-10, 1000, violation,
                            "collocation with psi in the cost");
    if (evaluations)
        *evaluations = pc.evaluations;
    if (st == HES_OK || st == HES_ENOORBIT) {
        hes_status ps = hes_colloc_psi(c, z, psi, NULL, NULL);
        if (st == HES_OK)
            st = ps;
    }
    return st;
}
