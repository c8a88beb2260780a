/*
 * mech.c - mechanical systems with unilateral constraints (decoupled-limbs
 * paper, Sec. 2, eq. 1-4): the generic callbacks that turn a mass matrix,
 * applied forces and constraint functions into the vector field, guards and
 * impact resets of a hybrid model, and the physical-validity checks every
 * impact gets for free.
 *
 * In a mode with chart q = phi(z) (Phi = Dphi, a = D^2 phi[z', z']) the
 * reduced equations are
 *     (Phi^T M Phi) z'' = Phi^T (f - c - M a),   q'' = Phi z'' + a,
 * with c the Coriolis/centrifugal term derived from dM/dq, and the forces of
 * the held constraints follow from the full equations:
 *     (Da M^-1 Da^T) lambda = Da q'' - Da M^-1 (f - c).
 * Every solve is a Cholesky factorisation (hes__mech_chol).  All work arrays
 * live on the stack (dimensions <= HES_MECH_MAX): the callbacks run inside
 * the integrator and allocate nothing.
 */
#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "model/model_internal.h"


const char *hes_mech_describe_error(int code, void *data)
{
    (void)data;
    switch (code) {
    case E_CALLBACK: return "a callback of the mechanical system failed";
    case E_MASS: return "the mass matrix is not positive definite";
    case E_DEPENDENT: return "the Jacobians of the constraints of the impact are dependent";
    case E_IMPACT: return "the post-impact velocity violates the impact law Da q'+ = -Gamma Da q'-";
    case E_PULL: return "an impact impulse would pull on a unilateral constraint: the chosen reset is not physically valid";
    case E_NOSEPARATE: return "a trailing contact does not separate after the impact: the chosen reset is not physically valid";
    case E_ENERGY: return "a plastic impact would increase the kinetic energy";
    case E_DIM: return "a dimension of the mechanical system exceeds HES_MECH_MAX";
    case E_NOTHELD: return "the released constraint is not held in the source mode";
    case E_CHART: return "a mode's chart needs chart_dz and chart_acc";
    case E_AFTER: return "the impact does not enforce a constraint that the target mode holds (add it to the transition's `after` set)";
    case E_LAW: return "the transition's own impact law (hes_mech_transition.impact) failed, e.g. its impulse steps did not end within their limit";
    }
    return NULL;
}

#define N HES_MECH_MAX

/* Fourth-order central-difference Jacobian (n_out x n_in, n_in at most 2N,
 * n_out at most N * N), (8 (f(h) - f(-h)) - (f(2h) - f(-2h))) / 12h with step
 * h = eps^(1/5) max(1, |x_j|): truncation and rounding both ~1e-12
 * relative, so that what is built on it can itself be differenced
 * (saltation matrices, the psi gradient). */
int hes__mech_fd4(hes__mech_vec_fn fn, void *ctx, const double *x, int n_in, int n_out,
                  double *jac)
{
    double xx[2 * N], f[4][N * N];
    memcpy(xx, x, sizeof(double) * (size_t)n_in);
    for (int j = 0; j < n_in; j++) {
        double h = pow(DBL_EPSILON, 0.2) * fmax(1.0, fabs(x[j]));
        const double off[4] = { h, -h, 2 * h, -2 * h };
        for (int s = 0; s < 4; s++) {
            xx[j] = x[j] + off[s];
            if (fn(ctx, xx, f[s]))
                return E_CALLBACK;
        }
        xx[j] = x[j];
        for (int i = 0; i < n_out; i++)
            jac[i + (size_t)j * n_out] =
                (8.0 * (f[0][i] - f[1][i]) - (f[2][i] - f[3][i])) / (12.0 * h);
    }
    return 0;
}

typedef struct {
    hes_mech_config_fn fn;
    const double *p;
    void *data;
} config_ctx;

static int config_call(void *ctx, const double *x, double *out)
{
    const config_ctx *c = ctx;
    return c->fn(x, c->p, out, c->data);
}

/* The Jacobian of a configuration function by fd4. */
static int fd_config(hes_mech_config_fn fn, const double *x, int n_in, int n_out,
                     const double *p, void *data, double *jac)
{
    config_ctx c = { fn, p, data };
    return hes__mech_fd4(config_call, &c, x, n_in, n_out, jac);
}

/* a function with its Jacobian, analytic when given */
static int eval_with_jac(hes_mech_config_fn fn, hes_mech_config_fn dfn, const double *x,
                         int n_in, int n_out, const double *p, void *data, double *out,
                         double *jac)
{
    if (fn(x, p, out, data))
        return E_CALLBACK;
    if (!jac)
        return 0;
    if (dfn)
        return dfn(x, p, jac, data) ? E_CALLBACK : 0;
    return fd_config(fn, x, n_in, n_out, p, data, jac);
}

/* Rows Da_j(q) of the listed constraints into D (n x d, column-major). */
static int constraint_rows(const hes_mech *m, const double *q, const double *p, int n,
                           const int *idx, double *D)
{
    double row[N], a;
    assert(m->d >= 1 && m->d <= N && n >= 0 && n <= m->n_constraints);
    for (int r = 0; r < n; r++) {
        assert(idx[r] >= 0 && idx[r] < m->n_constraints);
        const hes_mech_constraint *c = &m->constraints[idx[r]];
        int rc = eval_with_jac(c->a, c->Da, q, m->d, 1, p, hes_mech_constraint_data(m, c), &a, row);
        if (rc)
            return rc;
        for (int j = 0; j < m->d; j++)
            D[r + (size_t)j * n] = row[j];
    }
    return 0;
}

/* dM/dq (the k-th d x d block is dM/dq_k), analytic or by fd4 of M (the
 * block layout is fd4's column-major d*d x d Jacobian). */
int hes__mech_mass_derivative(const hes_mech *m, const double *q, const double *p, double *dM)
{
    if (m->mass_dq)
        return m->mass_dq(q, p, dM, m->data) ? E_CALLBACK : 0;
    return fd_config(m->mass, q, m->d, m->d * m->d, p, m->data, dM);
}

/* c(q, q') = Mdot q' - 1/2 d/dq (q'^T M q'):
 *     c_i = sum_kj (dM_ij/dq_k) q'_k q'_j - 1/2 sum_kj q'_k (dM_kj/dq_i) q'_j. */
void hes__mech_coriolis_of(int d, const double *dM, const double *qd, double *c)
{
    for (int i = 0; i < d; i++) {
        double s = 0;
        for (int k = 0; k < d; k++)
            for (int j = 0; j < d; j++) {
                s += dM[(size_t)k * d * d + i + (size_t)j * d] * qd[k] * qd[j];
                s -= 0.5 * qd[k] * dM[(size_t)i * d * d + k + (size_t)j * d] * qd[j];
            }
        c[i] = s;
    }
}

/* Cholesky factor in place (lower: A = L L^T, the upper triangle left as
 * it is, as LAPACK's dpotf2); E_MASS if not positive definite (a pivot
 * <= 0 or NaN).  base/dense.c's, written out rather than LAPACK's
 * dpotrf/dpotrs because these matrices have at most HES_MECH_MAX rows (2
 * to 6 in the built-ins) and are factorised millions of times in a
 * trajectory optimisation: OpenBLAS's dpotrf and dpotrs take a buffer
 * from its allocator, under a lock, at every call, which cost more than
 * the arithmetic and serialised the threads of psi's gradient (measured on
 * the knee-biped gaits). */
int hes__mech_chol(double *A, int n)
{
    return hes__chol(A, n) ? E_MASS : 0;
}

/* B (n x nrhs) <- (L L^T)^-1 B */
void hes__mech_chol_solve(const double *L, int n, double *B, int nrhs)
{
    hes__chol_solve(L, n, B, nrhs);
}

/* q = chart(z), Phi, q' = Phi z', a = D^2 chart[z', z']. */
int hes__mech_chart_state(const hes_mech_mode *md, const double *z, const double *zd,
                       const double *p, double *q, double *Phi, double *qd, double *acc)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k;
    if (!md->chart) {
        memcpy(q, z, sizeof(double) * (size_t)d);
        memcpy(qd, zd, sizeof(double) * (size_t)d);
        if (Phi)
            for (int i = 0; i < d * d; i++)
                Phi[i] = i % (d + 1) == 0;
        if (acc)
            memset(acc, 0, sizeof(double) * (size_t)d);
        return 0;
    }
    double J[N * N];
    if (!md->chart_dz || !md->chart_acc)
        return E_CHART;
    if (md->chart(z, p, q, m->data) || md->chart_dz(z, p, J, m->data))
        return E_CALLBACK;
    if (Phi)
        memcpy(Phi, J, sizeof(double) * (size_t)d * k);
    hes__matmul(d, k, 1, J, zd, qd);
    if (acc && md->chart_acc(z, zd, p, acc, m->data))
        return E_CALLBACK;
    return 0;
}

int hes__mech_mode_eval(const hes_mech_mode *md, double t, const double *x, const double *p,
                        hes__mech_eval *e)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k, rc;
    if (d > N || k > N || md->n_active > N || m->m > N || (!md->chart && k != d))
        return E_DIM;
    memset(e->u, 0, sizeof e->u);
    if ((rc = hes__mech_chart_state(md, x, x + k, p, e->q, e->Phi, e->qd, e->acc)))
        return rc;
    if (md->input && md->input(t, x, p, e->u, m->data))
        return E_CALLBACK;
    if (m->mass(e->q, p, e->M, m->data))
        return E_CALLBACK;
    if (m->net_force) {
        /* f - c from the system itself: no dM/dq */
        if (m->net_force(e->q, e->qd, e->u, p, e->f, m->data))
            return E_CALLBACK;
        memset(e->c, 0, sizeof(double) * (size_t)d);
    } else {
        if (m->force(e->q, e->qd, e->u, p, e->f, m->data))
            return E_CALLBACK;
        if ((rc = hes__mech_mass_derivative(m, e->q, p, e->dM)))
            return rc;
        hes__mech_coriolis_of(d, e->dM, e->qd, e->c);
    }
    /* Mz = Phi^T M Phi, z'' = Mz^-1 Phi^T (f - c - M acc), q'' = Phi z'' + acc */
    double MPhi[N * N], Ma[N];
    hes__matmul(d, d, k, e->M, e->Phi, MPhi);
    hes__matmul(d, d, 1, e->M, e->acc, Ma);
    for (int i = 0; i < k; i++) {
        double s = 0;
        for (int l = 0; l < d; l++)
            s += e->Phi[l + (size_t)i * d] * (e->f[l] - e->c[l] - Ma[l]);
        e->zdd[i] = s;
        for (int j = 0; j < k; j++) {
            double v = 0;
            for (int l = 0; l < d; l++)
                v += e->Phi[l + (size_t)i * d] * MPhi[l + (size_t)j * d];
            e->L[i + (size_t)j * k] = v;
        }
    }
    if ((rc = hes__mech_chol(e->L, k)))
        return rc;
    hes__mech_chol_solve(e->L, k, e->zdd, 1);
    hes__matmul(d, k, 1, e->Phi, e->zdd, e->qdd);
    for (int i = 0; i < d; i++)
        e->qdd[i] += e->acc[i];
    return 0;
}

/* The mode's dynamics at x = [z, z']: z'' and optionally q, q', the held
 * constraints' forces and the kinetic energy. */
static int mode_dynamics(const hes_mech_mode *md, double t, const double *x, const double *p,
                         double *zdd, double *q_out, double *qd_out, double *lambda,
                         double *kinetic)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k, na = md->n_active, rc;
    /* a chart's coordinates and the active constraints fit the system */
    assert(d >= 1 && d <= N && k >= 1 && k <= d && na >= 0 && na <= m->n_constraints);
    hes__mech_eval ev, *e = &ev;
    if ((rc = hes__mech_mode_eval(md, t, x, p, e)))
        return rc;
    const double *q = e->q, *qd = e->qd, *f = e->f, *c = e->c;
    memcpy(zdd, e->zdd, sizeof(double) * (size_t)k);
    if (kinetic) {
        double s = 0;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++)
                s += qd[i] * e->M[i + (size_t)j * d] * qd[j];
        *kinetic = 0.5 * s;
    }
    if (q_out)
        memcpy(q_out, q, sizeof(double) * (size_t)d);
    if (qd_out)
        memcpy(qd_out, qd, sizeof(double) * (size_t)d);
    if (lambda && na > 0) {
        /* (Da M^-1 Da^T) lambda = Da q'' - Da M^-1 (f - c) */
        double D[N * N], W[N * N], A[N * N], fm[N], r[N], *M = e->M;
        const double *qdd = e->qdd;
        for (int i = 0; i < d; i++)
            fm[i] = f[i] - c[i];
        if ((rc = constraint_rows(m, q, p, na, md->active, D)))
            return rc;
        if ((rc = hes__mech_chol(M, d)))
            return rc;
        for (int j = 0; j < na; j++) /* W = M^-1 Da^T */
            for (int i = 0; i < d; i++)
                W[i + (size_t)j * d] = D[j + (size_t)i * na];
        hes__mech_chol_solve(M, d, W, na);
        hes__mech_chol_solve(M, d, fm, 1);
        hes__matmul(na, d, na, D, W, A);
        for (int i = 0; i < na; i++) {
            double s = 0;
            for (int l = 0; l < d; l++)
                s += D[i + (size_t)l * na] * (qdd[l] - fm[l]);
            r[i] = s;
        }
        if (hes__mech_chol(A, na))
            return E_DEPENDENT;
        hes__mech_chol_solve(A, na, r, 1);
        memcpy(lambda, r, sizeof(double) * (size_t)na);
    }
    return 0;
}

int hes_mech_field(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_mode *md = data;
    int k = md->k;
    memcpy(out, x + k, sizeof(double) * (size_t)k);
    return mode_dynamics(md, t, x, p, out + k, NULL, NULL, NULL, NULL);
}

hes_status hes_mech_mode_state(const hes_mech_mode *md, double t, const double *x,
                               const double *p, double *q, double *qd, double *lambda,
                               double *kinetic)
{
    if (!md || !x)
        return HES_EINVAL;
    double zdd[N], lam[N];
    int rc = mode_dynamics(md, t, x, p, zdd, q, qd, lambda ? lam : NULL, kinetic);
    if (rc)
        return HES_EMODEL;
    if (lambda)
        memcpy(lambda, lam, sizeof(double) * (size_t)md->n_active);
    return HES_OK;
}

/* The mode's motion in its mechanical system's coordinates at x = [z, z']:
 * q, q' and q'' = Phi z'' + D^2 chart[z', z'], z'' the mode's dynamics. */
int hes__mech_mode_motion(const hes_mech_mode *md, double t, const double *x, const double *p,
                          double *q, double *qd, double *qdd)
{
    int d = md->mech->d, k = md->k, rc;
    double zdd[N], Phi[N * N];
    if ((rc = mode_dynamics(md, t, x, p, zdd, NULL, NULL, NULL, NULL)) ||
        (rc = hes__mech_chart_state(md, x, x + k, p, q, Phi, qd, qdd)))
        return rc;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < k; j++)
            qdd[i] += Phi[i + (size_t)j * d] * zdd[j];
    return 0;
}

/* The event's configuration and velocity (qd NULL: the configuration
 * alone, which a guard needs): through the lift, or the source mode's
 * chart. */
static int event_state(const hes_mech_transition *tr, const double *x, const double *p,
                       double *q, double *qd, const hes_mech **em)
{
    const hes_mech_mode *md = tr->from;
    const hes_mech *m = tr->mech ? tr->mech : md->mech;
    int k = md->k, d = m->d;
    *em = m;
    if (d > N || k > N)
        return E_DIM;
    if (!qd) {
        if (!tr->lift && tr->mech && tr->mech != md->mech)
            return E_DIM;
        if (tr->lift || md->chart)
            return (tr->lift ? tr->lift : md->chart)(x, p, q, m->data) ? E_CALLBACK : 0;
        memcpy(q, x, sizeof(double) * (size_t)d);
        return 0;
    }
    if (!tr->lift)
        return tr->mech && tr->mech != md->mech
                   ? E_DIM
                   : hes__mech_chart_state(md, x, x + k, p, q, NULL, qd, NULL);
    double J[N * N];
    int rc = eval_with_jac(tr->lift, tr->lift_dz, x, k, d, p, m->data, q, J);
    if (rc)
        return rc;
    hes__matmul(d, k, 1, J, x + k, qd);
    return 0;
}

hes_status hes_mech_event_state(const hes_mech_transition *tr, const double *x,
                                const double *p, double *q, double *qd)
{
    const hes_mech *m;
    if (!tr || !x || !q || !qd)
        return HES_EINVAL;
    return event_state(tr, x, p, q, qd, &m) ? HES_EMODEL : HES_OK;
}

int hes_mech_guard(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    if (tr->kind == HES_MECH_RELEASE) {
        const hes_mech_mode *md = tr->from;
        int pos = -1;
        for (int i = 0; i < md->n_active; i++)
            if (md->active[i] == tr->constraint)
                pos = i;
        if (pos < 0)
            return E_NOTHELD;
        double zdd[N], lam[N];
        int rc = mode_dynamics(md, t, x, p, zdd, NULL, NULL, lam, NULL);
        if (rc)
            return rc;
        out[0] = lam[pos];
        return 0;
    }
    double q[N];
    const hes_mech *m;
    int rc = event_state(tr, x, p, q, NULL, &m);
    if (rc)
        return rc;
    const hes_mech_constraint *c = &m->constraints[tr->constraint];
    return c->a(q, p, out, hes_mech_constraint_data(m, c)) ? E_CALLBACK : 0;
}

/* hes_mech_guard as a function of x alone, for differences (ctx: the
 * transition, t and p) */
typedef struct {
    const hes_mech_transition *tr;
    double t;
    const double *p;
} guard_ctx;

static int guard_of_x(void *ctx, const double *x, double *out)
{
    const guard_ctx *g = ctx;
    return hes_mech_guard(g->t, x, g->p, out, (void *)g->tr);
}

/* An activation's guard a_c(q(z)) has the gradient (Da_c Dq/dz, 0): exact
 * from the constraint's row and the lift's (or the source chart's)
 * Jacobian, so that a guard the state starts on has Dxg F exactly 0 when
 * it should.  A release's (the held constraint's force) by fourth-order
 * differences. */
int hes_mech_guard_dx(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    const hes_mech_mode *md = tr->from;
    int k = md->k, rc;
    if (k > N)
        return E_DIM;
    if (tr->kind == HES_MECH_RELEASE) {
        guard_ctx g = { tr, t, p };
        return hes__mech_fd4(guard_of_x, &g, x, 2 * k, 1, out);
    }
    const hes_mech *m = tr->mech ? tr->mech : md->mech;
    int d = m->d;
    if (d > N)
        return E_DIM;
    double q[N], J[N * N], row[N], a;
    if (tr->lift)
        rc = eval_with_jac(tr->lift, tr->lift_dz, x, k, d, p, m->data, q, J);
    else if (tr->mech && tr->mech != md->mech)
        rc = E_DIM;
    else {
        double qd[N];
        rc = hes__mech_chart_state(md, x, x + k, p, q, J, qd, NULL);
    }
    if (rc)
        return rc;
    const hes_mech_constraint *c = &m->constraints[tr->constraint];
    void *cdata = hes_mech_constraint_data(m, c);
    if ((rc = eval_with_jac(c->a, c->Da, q, d, 1, p, cdata, &a, row)))
        return rc;
    for (int j = 0; j < k; j++) {
        double s = 0;
        for (int l = 0; l < d; l++)
            s += row[l] * J[l + (size_t)j * d];
        out[j] = s;
        out[k + j] = 0;
    }
    return 0;
}

/* An activation's guard does not depend on time; a release's (through the
 * inputs) by central differences. */
int hes_mech_guard_dt(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    if (tr->kind != HES_MECH_RELEASE) {
        out[0] = 0;
        return 0;
    }
    double gp, gm, h = hes__fd_step(t);
    int rc = hes_mech_guard(t + h, x, p, &gp, data);
    if (!rc)
        rc = hes_mech_guard(t - h, x, p, &gm, data);
    out[0] = (gp - gm) / (2 * h);
    return rc;
}

static double kinetic_energy(const double *M, const double *v, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            s += v[i] * M[i + (size_t)j * d] * v[j];
    return 0.5 * s;
}

/* Every constraint in tr->separate has a separating velocity after the
 * impact (to 1e-10 of the velocity scale). */
static int separating(const hes_mech_transition *tr, const hes_mech *m, const double *q,
                      const double *p, const double *qdp, double vscale)
{
    for (int s = 0; s < tr->n_separate; s++) {
        double row[N], a, sv = 0;
        const hes_mech_constraint *c = &m->constraints[tr->separate[s]];
        int rc = eval_with_jac(c->a, c->Da, q, m->d, 1, p, hes_mech_constraint_data(m, c), &a, row);
        if (rc)
            return rc;
        for (int i = 0; i < m->d; i++)
            sv += row[i] * qdp[i];
        if (sv < -1e-10 * (1.0 + vscale))
            return E_NOSEPARATE;
    }
    return 0;
}

/* The impact law with its checks: qd_plus and the impulses. */
static int impact(const hes_mech_transition *tr, const double *x, const double *p, double *q,
                  double *qdm, double *qdp, double *impulse)
{
    const hes_mech *m;
    int rc = event_state(tr, x, p, q, qdm, &m);
    if (rc)
        return rc;
    int d = m->d, na = tr->kind == HES_MECH_ACTIVATE ? tr->n_after : 0;
    if (na > N)
        return E_DIM;
    memcpy(qdp, qdm, sizeof(double) * (size_t)d);
    if (na == 0)
        return 0;
    double M[N * N], L[N * N], D[N * N], W[N * N], A[N * N], v[N], lam[N];
    if (m->mass(q, p, M, m->data))
        return E_CALLBACK;
    memcpy(L, M, sizeof(double) * (size_t)d * d);
    if ((rc = hes__mech_chol(L, d)))
        return rc;
    if ((rc = constraint_rows(m, q, p, na, tr->after, D)))
        return rc;
    if (tr->impact) {
        /* another law: its outcome, then the checks below (no pulling
           impulse is not checked: the law's impulses are its own) */
        if (tr->impact(q, qdm, p, qdp, tr->impact_ctx))
            return E_LAW;
        double v0[N], vp[N], vscale = 0;
        hes__matmul(na, d, 1, D, qdm, v0);
        hes__matmul(na, d, 1, D, qdp, vp);
        for (int i = 0; i < na; i++)
            vscale = fmax(vscale, fabs(v0[i]));
        for (int i = 0; i < na; i++) {
            if (fabs(vp[i] + m->constraints[tr->after[i]].restitution * v0[i]) >
                1e-6 * (1.0 + vscale))
                return E_IMPACT;
            if (impulse)
                impulse[i] = NAN;
        }
        if (kinetic_energy(M, qdp, d) > kinetic_energy(M, qdm, d) * (1 + 1e-10) + 1e-14)
            return E_ENERGY;
        return separating(tr, m, q, p, qdp, vscale);
    }
    for (int j = 0; j < na; j++)
        for (int i = 0; i < d; i++)
            W[i + (size_t)j * d] = D[j + (size_t)i * na];
    hes__mech_chol_solve(L, d, W, na);               /* W = M^-1 Da^T */
    hes__matmul(na, d, na, D, W, A);       /* A = Da M^-1 Da^T */
    hes__matmul(na, d, 1, D, qdm, v);      /* Da q'- */
    double gam[N], vscale = 0;
    for (int i = 0; i < na; i++) {
        gam[i] = m->constraints[tr->after[i]].restitution;
        lam[i] = (1.0 + gam[i]) * v[i];
        vscale = fmax(vscale, fabs(v[i]));
    }
    if (hes__mech_chol(A, na))
        return E_DEPENDENT;
    hes__mech_chol_solve(A, na, lam, 1);
    for (int i = 0; i < d; i++) {
        double s = 0;
        for (int j = 0; j < na; j++)
            s += W[i + (size_t)j * d] * lam[j];
        qdp[i] = qdm[i] - s;
    }
    /* the impulse is -lam (it removes the approaching velocity) */
    double vp[N], ke_m = kinetic_energy(M, qdm, d), ke_p = kinetic_energy(M, qdp, d);
    hes__matmul(na, d, 1, D, qdp, vp);
    int plastic_ish = 1;
    for (int i = 0; i < na; i++) {
        if (fabs(vp[i] + gam[i] * v[i]) > 1e-8 * (1.0 + vscale))
            return E_IMPACT;
        if (m->constraints[tr->after[i]].unilateral && -lam[i] < -1e-10 * (1.0 + fabs(lam[i])))
            return E_PULL;
        plastic_ish &= gam[i] <= 1.0;
        if (impulse)
            impulse[i] = -lam[i];
    }
    if (plastic_ish && ke_p > ke_m * (1 + 1e-10) + 1e-14)
        return E_ENERGY;
    return separating(tr, m, q, p, qdp, vscale);
}

hes_status hes_mech_impact(const hes_mech_transition *tr, const double *x, const double *p,
                           double *q, double *qd_minus, double *qd_plus, double *impulse)
{
    if (!tr || !x)
        return HES_EINVAL;
    double qq[N], qm[N], qp[N], imp[N];
    if (impact(tr, x, p, qq, qm, qp, imp))
        return HES_EMODEL;
    const hes_mech *m = tr->mech ? tr->mech : tr->from->mech;
    size_t d = (size_t)m->d;
    if (q)
        memcpy(q, qq, sizeof(double) * d);
    if (qd_minus)
        memcpy(qd_minus, qm, sizeof(double) * d);
    if (qd_plus)
        memcpy(qd_plus, qp, sizeof(double) * d);
    if (impulse && tr->kind == HES_MECH_ACTIVATE)
        memcpy(impulse, imp, sizeof(double) * (size_t)tr->n_after);
    return HES_OK;
}

int hes_mech_reset(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    const hes_mech *m = tr->mech ? tr->mech : tr->from->mech;
    int d = m->d, k = tr->to->k, rc;
    double q[N], qdm[N], qdp[N];
    (void)t;
    if (k > N)
        return E_DIM;
    /* a constraint held after the event must have been enforced by it (when
     * the coordinates stay the same; a to_chart may relabel contacts) */
    if (tr->kind == HES_MECH_ACTIVATE && tr->to->mech == m && !tr->to_chart)
        for (int i = 0; i < tr->to->n_active; i++) {
            int found = 0;
            for (int j = 0; j < tr->n_after; j++)
                found |= tr->after[j] == tr->to->active[i];
            if (!found)
                return E_AFTER;
        }
    if ((rc = impact(tr, x, p, q, qdm, qdp, NULL)))
        return rc;
    if (!tr->to_chart) {
        if (k != d)
            return E_DIM;
        memcpy(out, q, sizeof(double) * (size_t)d);
        memcpy(out + k, qdp, sizeof(double) * (size_t)d);
        return 0;
    }
    double J[N * N];
    if ((rc = eval_with_jac(tr->to_chart, tr->to_chart_dq, q, d, k, p, m->data, out, J)))
        return rc;
    hes__matmul(k, d, 1, J, qdp, out + k);
    return 0;
}

int hes__mech_coupling(const hes_transition *a, const hes_transition *b, const double *x,
                       const double *p, double *cosine)
{
    if (a->guard != hes_mech_guard || b->guard != hes_mech_guard)
        return 1;
    const hes_mech_transition *ta = a->data, *tb = b->data;
    const hes_mech *m;
    double q[N], qd[N];
    if (!ta || !tb || ta->kind != HES_MECH_ACTIVATE || tb->kind != HES_MECH_ACTIVATE ||
        (ta->mech ? ta->mech : ta->from->mech) != (tb->mech ? tb->mech : tb->from->mech))
        return 1;
    if (event_state(ta, x, p, q, qd, &m))
        return 1;
    int d = m->d, idx[2] = { ta->constraint, tb->constraint };
    double D[2 * N], W[2 * N], M[N * N];
    if (constraint_rows(m, q, p, 2, idx, D) || m->mass(q, p, M, m->data) || hes__mech_chol(M, d))
        return 1;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < d; i++)
            W[i + (size_t)j * d] = D[j + (size_t)i * 2];
    hes__mech_chol_solve(M, d, W, 2);
    double g[4];
    hes__matmul(2, d, 2, D, W, g); /* Da M^-1 Da^T */
    *cosine = g[2] / sqrt(g[0] * g[3]);
    return 0;
}

hes_status hes_mech_contacts(const hes_mech *m, const double *q, const double *p, int k,
                             const int *idx, double *M, double *Jn, double *Jt, double *mu,
                             hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!m || !q || !idx || !M || !Jn || !Jt || !mu || k < 1)
        return hes__say(msg, len, HES_EINVAL, "contacts: needs a mechanical system, q, at least "
                        "one contact and the output arrays");
    int d = m->d;
    if (d < 1 || d > N || k > N)
        return hes__say(msg, len, HES_EINVAL, "contacts: %d coordinates and %d contacts (at most "
                        "%d each)", d, k, N);
    for (int r = 0; r < k; r++) {
        if (idx[r] < 0 || idx[r] >= m->n_constraints)
            return hes__say(msg, len, HES_EINVAL, "contacts: %d is not a constraint of %s (0 to "
                            "%d)", idx[r], m->name ? m->name : "the system", m->n_constraints - 1);
        const hes_mech_constraint *c = &m->constraints[idx[r]];
        if (!(c->mu >= 0) || !isfinite(c->mu))
            return hes__say(msg, len, HES_EINVAL, "contacts: constraint %s has friction "
                            "coefficient %g", c->name, c->mu);
        if (c->mu > 0 && !c->Jt)
            return hes__say(msg, len, HES_EINVAL, "contacts: constraint %s has friction (mu = %g) "
                            "but no tangent row Jt", c->name, c->mu);
        mu[r] = c->mu;
        double row[N];
        if (c->Jt && c->Jt(q, p, row, hes_mech_constraint_data(m, c)))
            return hes__say(msg, len, HES_EINVAL, "contacts: the tangent row of %s failed",
                            c->name);
        for (int j = 0; j < d; j++)
            Jt[r + (size_t)j * k] = c->Jt ? row[j] : 0;
    }
    if (m->mass(q, p, M, m->data))
        return hes__say(msg, len, HES_EINVAL, "contacts: the mass matrix of %s failed",
                        m->name ? m->name : "the system");
    if (constraint_rows(m, q, p, k, idx, Jn))
        return hes__say(msg, len, HES_EINVAL, "contacts: a constraint function failed");
    return HES_OK;
}
