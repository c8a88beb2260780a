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
 * Every solve is a Cholesky factorisation (hes__mech_chol).  The work
 * arrays are sized by the system (hes__mech_work, model_internal.h): on
 * the stack for small systems, so that the callbacks run inside the
 * integrator and allocate nothing, one heap block per call for large ones.
 */
#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"


const char *hes_mech_describe_error(int code, void *data)
{
    (void)data;
    if (code >= HES__MECH_STICKS_AT)
        code = E_STICKS;
    else if (code >= HES__MECH_PRESSED_AT)
        code = E_PRESSED;
    else if (code >= HES__MECH_IMPULSE_AT)
        code = E_PULL;
    else if (code >= HES__MECH_PULL_AT)
        code = E_PULLS;  /* the constraint's own, for whom names it: robot_model.c */
    else if (code >= HES__MECH_SLIP_AT)
        code = E_SLIP;
    switch (code) {
    case E_CALLBACK: return "a callback of the mechanical system failed";
    case E_MASS: return "the mass matrix is not positive definite";
    case E_DEPENDENT: return "the Jacobians of the constraints held together (by a mode or an impact) are dependent: a redundant set, or a singular configuration such as a straight leg";
    case E_IMPACT: return "the post-impact velocity violates the impact law Da q'+ = -Gamma Da q'-";
    case E_PULL: return "an impact impulse would pull on a unilateral constraint: the chosen reset is not physically valid";
    case E_NOSEPARATE: return "a trailing contact does not separate after the impact: the chosen reset is not physically valid";
    case E_ENERGY: return "a plastic impact would increase the kinetic energy";
    case E_DIM: return "the dimensions of a mode, its mechanical system and a transition's lift do not fit together";
    case E_NOTHELD: return "the released constraint is not held in the source mode";
    case E_CHART: return "a mode's chart needs chart_dz and chart_acc";
    case E_AFTER: return "the impact does not enforce a constraint that the target mode holds (add it to the transition's `after` set)";
    case E_LAW: return "the transition's own impact law (hes_mech_transition.impact) failed, e.g. its impulse steps did not end within their limit";
    case E_NOMEM: return "out of memory for the mechanical system's work arrays";
    case E_SLIP: return "a held contact's tangential force (or impulse) exceeds mu times its normal one: the foot would slip, so the impact or the mode that holds it is not physically valid";
    case E_PRESSED: return "a contact or limit let go at rest by the event would be pressed back at once (its acceleration points into it): neither holding it nor letting it go is consistent (a foot whose tangential force does not vanish with its normal one slides before it can lift off; a no-slip foot cannot)";
    case E_STICKS: return "a contact the mode slides is at rest with its friction force inside the cone: it sticks, so sliding it is not physically valid (start in a mode that holds it sticking, with a transition \"slip\" to this one)";
    case E_PULLS: return "a contact or limit that the mode holds would pull (its force is negative): it leaves at once, so holding it is not physically valid (entering the mode by a transition: release it there)";
    }
    return NULL;
}

int hes__mech_friction_ok(const hes_mech *m, int n, const int *idx, const double *lambda,
                          int n_skip, const int *skip)
{
    for (int i = 0; i < n; i++) {
        const hes_mech_constraint *c = &m->constraints[idx[i]];
        int skipped = 0;
        for (int j = 0; j < n_skip; j++)
            skipped |= skip[j] == idx[i];
        if (skipped)
            continue;
        /* a pulling normal force is a release's business (its guard), not a slip */
        if (!(c->mu > 0) || isinf(c->mu) || c->n_friction_rows < 1 || !c->friction_rows ||
            lambda[i] < 0)
            continue;
        double t2 = 0;
        int found = 0;
        for (int r = 0; r < c->n_friction_rows; r++)
            for (int j = 0; j < n; j++)
                if (idx[j] == c->friction_rows[r]) {
                    t2 += lambda[j] * lambda[j];
                    found = 1;
                }
        if (found && sqrt(t2) > c->mu * lambda[i] * (1 + 1e-9) + 1e-12 * (1 + fabs(lambda[i])))
            return HES__MECH_SLIP_AT + idx[i];
    }
    return 0;
}

hes_status hes__callback_status(const char *why)
{
    return why && why == hes_mech_describe_error(E_NOMEM, NULL) ? HES_ENOMEM : HES_EMODEL;
}

#define S HES__MECH_SMALL
/* the stack buffer `small` of a work area */
#define OPEN(w, small, n) hes__mech_work_open(w, small, sizeof small / sizeof *small, n)
#define TAKE hes__mech_work_take

/* Fourth-order central-difference Jacobian (n_out x n_in),
 * (8 (f(h) - f(-h)) - (f(2h) - f(-2h))) / 12h with step
 * h = eps^(1/5) max(1, |x_j|): truncation and rounding both ~1e-12
 * relative, so that what is built on it can itself be differenced
 * (saltation matrices, the psi gradient). */
int hes__mech_fd4(hes__mech_vec_fn fn, void *ctx, const double *x, int n_in, int n_out,
                  double *jac)
{
    double small[2 * S + 4 * S * S];
    hes__mech_work w;
    size_t no = (size_t)n_out;
    if (OPEN(&w, small, (size_t)n_in + 4 * no))
        return E_NOMEM;
    double *xx = TAKE(&w, (size_t)n_in), *f[4];
    for (int s = 0; s < 4; s++)
        f[s] = TAKE(&w, no);
    int rc = 0;
    memcpy(xx, x, sizeof(double) * (size_t)n_in);
    for (int j = 0; j < n_in && !rc; j++) {
        double h = pow(DBL_EPSILON, 0.2) * fmax(1.0, fabs(x[j]));
        const double off[4] = { h, -h, 2 * h, -2 * h };
        for (int s = 0; s < 4 && !rc; s++) {
            xx[j] = x[j] + off[s];
            if (fn(ctx, xx, f[s]))
                rc = E_CALLBACK;
        }
        xx[j] = x[j];
        for (int i = 0; i < n_out && !rc; i++)
            jac[i + (size_t)j * n_out] =
                (8.0 * (f[0][i] - f[1][i]) - (f[2][i] - f[3][i])) / (12.0 * h);
    }
    hes__mech_work_close(&w);
    return rc;
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

/* a constraint's value at q (+) dq, for differences along velocities */
typedef struct {
    const hes_mech *m;
    const hes_mech_constraint *c;
    const double *q, *p;
    double *qs;   /* nq values of work */
} along_ctx;

static int constraint_along(void *ctx, const double *dq, double *out)
{
    const along_ctx *a = ctx;
    hes_mech_integrate(a->m, a->q, dq, 1, a->qs);
    return a->c->a(a->qs, a->p, out, hes_mech_constraint_data(a->m, a->c)) ? E_CALLBACK : 0;
}

/* Constraint c's value a(q) and row Da (d values: a' = Da q'): its own, or
 * fourth-order differences along the velocities' directions (q (+) h e_j,
 * which is q + h e_j without quaternions). */
int hes__mech_row(const hes_mech *m, const hes_mech_constraint *c, const double *q,
                          const double *p, double *a, double *row)
{
    void *data = hes_mech_constraint_data(m, c);
    if (c->a(q, p, a, data))
        return E_CALLBACK;
    if (c->Da)
        return c->Da(q, p, row, data) ? E_CALLBACK : 0;
    size_t d = (size_t)m->d, nq = (size_t)hes_mech_nq(m);
    double small[3 * S];
    hes__mech_work w;
    if (OPEN(&w, small, d + nq))
        return E_NOMEM;
    double *zero = TAKE(&w, d);
    along_ctx ctx = { m, c, q, p, TAKE(&w, nq) };
    memset(zero, 0, sizeof(double) * d);
    int rc = hes__mech_fd4(constraint_along, &ctx, zero, m->d, 1, row);
    hes__mech_work_close(&w);
    return rc;
}

/* Rows Da_j(q) of the listed constraints into D (n x d, column-major). */
int hes__mech_rows(const hes_mech *m, const double *q, const double *p, int n,
                           const int *idx, double *D)
{
    double small[S], a;
    hes__mech_work w;
    assert(m->d >= 1 && n >= 0 && n <= m->n_constraints);
    if (OPEN(&w, small, (size_t)m->d))
        return E_NOMEM;
    double *row = TAKE(&w, (size_t)m->d);
    int rc = 0;
    for (int r = 0; r < n && !rc; r++) {
        assert(idx[r] >= 0 && idx[r] < m->n_constraints);
        const hes_mech_constraint *c = &m->constraints[idx[r]];
        rc = hes__mech_row(m, c, q, p, &a, row);
        for (int j = 0; j < m->d && !rc; j++)
            D[r + (size_t)j * n] = row[j];
    }
    hes__mech_work_close(&w);
    return rc;
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
 * dpotrf/dpotrs because these matrices are small (2 to 6 rows in the
 * built-ins, tens in robots) and are factorised millions of times in a
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

/* q = chart(z), Phi (d x k; NULL: not wanted), q' = Phi z', a = D^2
 * chart[z', z']. */
int hes__mech_chart_state(const hes_mech_mode *md, const double *z, const double *zd,
                       const double *p, double *q, double *Phi, double *qd, double *acc)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k;
    if (!md->chart) {
        memcpy(q, z, sizeof(double) * (size_t)hes_mech_nq(m));
        memcpy(qd, zd, sizeof(double) * (size_t)d);
        if (Phi)
            for (int i = 0; i < d * d; i++)
                Phi[i] = i % (d + 1) == 0;
        if (acc)
            memset(acc, 0, sizeof(double) * (size_t)d);
        return 0;
    }
    if (md->chart_state && Phi)
        return md->chart_state(z, zd, p, q, Phi, qd, acc, m->data) ? E_CALLBACK : 0;
    if (!md->chart_dz || !md->chart_acc)
        return E_CHART;
    double small[S * S];
    hes__mech_work w;
    if (OPEN(&w, small, Phi ? 0 : (size_t)d * k))
        return E_NOMEM;
    double *J = Phi ? Phi : TAKE(&w, (size_t)d * k);
    int rc = md->chart(z, p, q, m->data) || md->chart_dz(z, p, J, m->data) ? E_CALLBACK : 0;
    if (!rc)
        hes__matmul(d, k, 1, J, zd, qd);
    if (!rc && acc && md->chart_acc(z, zd, p, acc, m->data))
        rc = E_CALLBACK;
    hes__mech_work_close(&w);
    return rc;
}

/* The evaluation's arrays in its work area (dM only without net_force). */
static int eval_open(const hes_mech_mode *md, hes__mech_eval *e)
{
    const hes_mech *m = md->mech;
    size_t d = (size_t)m->d, k = (size_t)md->k, nu = (size_t)(m->m > 0 ? m->m : 1),
           dm = m->net_force ? 0 : d * d * d;
    hes__mech_work *w = &e->w;
    size_t nq = (size_t)hes_mech_nq(m);
    if (OPEN(w, e->small, HES__MECH_EVAL_NEED(d, k, nu, dm) + nq - d)) {
        e->dM = NULL;
        return E_NOMEM;
    }
    e->q = TAKE(w, nq), e->qd = TAKE(w, d), e->acc = TAKE(w, d), e->f = TAKE(w, d);
    e->c = TAKE(w, d), e->qdd = TAKE(w, d), e->Ma = TAKE(w, d);
    e->u = TAKE(w, nu), e->zdd = TAKE(w, k);
    e->Phi = TAKE(w, d * k), e->MPhi = TAKE(w, d * k);
    e->L = TAKE(w, k * k), e->M = TAKE(w, d * d);
    e->dM = dm ? TAKE(w, dm) : NULL;
    memset(e->u, 0, sizeof(double) * nu);
    return 0;
}

void hes__mech_eval_close(hes__mech_eval *e)
{
    hes__mech_work_close(&e->w);
}

int hes__mech_mode_eval(const hes_mech_mode *md, double t, const double *x, const double *p,
                        hes__mech_eval *e)
{
    const hes_mech *m = md->mech;
    int d = m->d, k = md->k, rc;
    e->w.heap = 0;   /* nothing to free until the area is open */
    if (!md->chart && k != d)
        return E_DIM;
    if ((rc = eval_open(md, e)))
        return rc;
    if ((rc = hes__mech_chart_state(md, x, x + hes__mech_kq(md), p, e->q, e->Phi, e->qd,
                                    e->acc)))
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
    double *MPhi = e->MPhi, *Ma = e->Ma;
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
    if (md->held && md->n_active > 0) {   /* the held constraints' forces too (no chart) */
        for (int i = 0; i < d; i++)
            e->Ma[i] = e->f[i] - e->c[i];   /* Ma: free again */
        if ((rc = hes__mech_held_dynamics(md, p, e->q, e->qd, e->M, e->Ma, e->qdd, NULL)))
            return rc;
        memcpy(e->zdd, e->qdd, sizeof(double) * (size_t)d);
    }
    return 0;
}

/* Whether constraint c is one of the mode's sliding normals. */
static int slides(const hes_mech_mode *md, int c)
{
    for (int i = 0; i < md->n_sliding; i++)
        if (md->sliding[i] == c)
            return 1;
    return 0;
}

/* A sliding contact's friction opposes the unit direction
 *     s = w / |w|,   w = v_t + eps s0,   eps = hes__mech_blend_speed,
 * v_t its sliding velocity (friction rows) and s0 the direction it starts
 * to slide in from rest (rest_directions).  Above eps this is Coulomb's
 * v_t / |v_t| to eps / |v_t|; at rest it is s0, so the friction is
 * continuous where a contact starts to slide (at the cone).  A slide from
 * rest grows as t^2, and the bare v_t / |v_t| is undefined at first and
 * then turns at a rate 1 / |v_t|: a switch between the two at a threshold
 * speed made the field's Jacobian jump by mu lambda_n / threshold there,
 * and the flow's sensitivities stalled at it.  Blended, the direction and
 * its Jacobian are continuous, their stiffness at most about
 * mu lambda_n |W| / eps (W the contact's Delassus matrix).  eps is a
 * tenth of HES_MECH_STICK_SPEED (1 + |q'|), so a slide coming to rest
 * sticks (stick_guard) before the blend turns it. */
double hes__mech_blend_speed(const double *qd, int d)
{
    double vs = 0;
    for (int l = 0; l < d; l++)
        vs += qd[l] * qd[l];
    return HES__MECH_BLEND * HES_MECH_STICK_SPEED * (1 + sqrt(vs));
}

/* s = w / |w|, w = v + eps s0 (nf values); returns |w|. */
static double blended_direction(const double *v, const double *s0, int nf, double eps,
                                double *s)
{
    double wn = 0;
    for (int r = 0; r < nf; r++) {
        s[r] = v[r] + eps * s0[r];
        wn += s[r] * s[r];
    }
    wn = sqrt(wn);
    for (int r = 0; r < nf; r++)
        s[r] = wn > 0 ? s[r] / wn : 0;
    return wn;
}

/* The rows along which the held constraints' forces act, B (n_active x d,
 * column-major): their own rows D, but a sliding normal's Da_n - mu s^T
 * Da_t, with s its sliding direction (md->sliding_s, or blended from its
 * sliding velocity and rest_s: HES__MECH_MAX_FRICTION values per sliding
 * contact, in the order of md->sliding).  *any: whether some row changed. */
static int force_rows(const hes_mech_mode *md, const double *q, const double *qd,
                      const double *p, const double *D, const double *rest_s, double *B,
                      int *any)
{
    const hes_mech *m = md->mech;
    int d = m->d, na = md->n_active, rc = 0;
    memcpy(B, D, sizeof(double) * (size_t)na * d);
    *any = 0;
    if (md->n_sliding < 1)
        return 0;
    double small[5 * S], a;
    hes__mech_work w;
    if (OPEN(&w, small, (1 + (size_t)HES__MECH_MAX_FRICTION) * (size_t)d +
                            (size_t)HES__MECH_MAX_FRICTION))
        return E_NOMEM;
    double *row = TAKE(&w, (size_t)d), *Dt = TAKE(&w, HES__MECH_MAX_FRICTION * (size_t)d),
           *s = TAKE(&w, (size_t)HES__MECH_MAX_FRICTION);
    for (int i = 0; i < na && !rc; i++) {
        const hes_mech_constraint *c = &m->constraints[md->active[i]];
        if (!slides(md, md->active[i]))
            continue;
        int nf = c->n_friction_rows;
        if (nf < 1 || nf > HES__MECH_MAX_FRICTION || !c->friction_rows) {
            rc = E_CALLBACK;
            break;
        }
        int js = 0;
        while (md->sliding[js] != md->active[i])
            js++;
        for (int r = 0; r < nf && !rc; r++) {
            const hes_mech_constraint *t = &m->constraints[c->friction_rows[r]];
            if ((rc = hes__mech_row(m, t, q, p, &a, row)))
                break;
            memcpy(Dt + (size_t)r * d, row, sizeof(double) * (size_t)d);
            s[r] = 0;
            for (int l = 0; l < d; l++)
                s[r] += row[l] * qd[l];
        }
        if (rc)
            break;
        double sb[HES__MECH_MAX_FRICTION];
        if (!md->sliding_s)
            blended_direction(s, rest_s + (size_t)js * HES__MECH_MAX_FRICTION, nf,
                              hes__mech_blend_speed(qd, d), sb);
        for (int r = 0; r < nf; r++) {
            double sr = md->sliding_s ? md->sliding_s[(size_t)js * HES__MECH_MAX_FRICTION + r]
                                      : sb[r];
            for (int l = 0; l < d; l++)
                B[i + (size_t)l * na] -= c->mu * sr * Dt[(size_t)r * d + l];
        }
        *any = 1;
    }
    hes__mech_work_close(&w);
    return rc;
}

/* The directions rest_s (force_rows) in which the mode's sliding contacts
 * start to slide from rest: against the friction force each would bear
 * sticking, s0 = -lambda_t / |lambda_t| (the forces of the mode with its
 * sliding contacts sticking, no cone checked; at the cone the friction is
 * continuous, and the velocity that grows is along s0).  Nothing to do
 * when the directions are given (md->sliding_s). */
/* The forces lam of md's held constraints with its sliding contacts
 * sticking: n_active values, then each sliding contact's friction rows'
 * (no cone checked).  lam: n_active + n_sliding HES__MECH_MAX_FRICTION. */
static int stick_forces(const hes_mech_mode *md, const double *p, double *q, double *qd,
                        double *M, const double *net, double *lam)
{
    const hes_mech *m = md->mech;
    int d = m->d, na = md->n_active, ns = md->n_sliding, rc;
    size_t cap = (size_t)na + (size_t)ns * HES__MECH_MAX_FRICTION;
    int *act = malloc(sizeof(int) * cap);
    double *qdd = malloc(sizeof(double) * (size_t)d);
    if (!act || !qdd) {
        free(act);
        free(qdd);
        return E_NOMEM;
    }
    int n2 = na;
    memcpy(act, md->active, sizeof(int) * (size_t)na);
    for (int j = 0; j < ns; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        for (int r = 0; r < c->n_friction_rows; r++)
            act[n2++] = c->friction_rows[r];
    }
    hes_mech_mode tmp = *md;
    tmp.active = act, tmp.n_active = n2;
    tmp.sliding = NULL, tmp.n_sliding = 0;
    tmp.slip_watched = act, tmp.n_slip_watched = n2;
    rc = hes__mech_held_dynamics(&tmp, p, q, qd, M, net, qdd, lam);
    free(act);
    free(qdd);
    return rc;
}

static int rest_directions(const hes_mech_mode *md, const double *p, double *q, double *qd,
                           double *M, const double *net, double *rest_s)
{
    const hes_mech *m = md->mech;
    int na = md->n_active, ns = md->n_sliding, rc = 0;
    if (md->sliding_s || ns < 1)
        return 0;
    double *lam = malloc(sizeof(double) * ((size_t)na + (size_t)ns * HES__MECH_MAX_FRICTION));
    if (!lam)
        return E_NOMEM;
    rc = stick_forces(md, p, q, qd, M, net, lam);
    if (rc == E_DEPENDENT) {   /* the contacts cannot all stick: no direction from rest */
        memset(rest_s, 0, sizeof(double) * (size_t)ns * HES__MECH_MAX_FRICTION);
        rc = 0;
        ns = 0;
    }
    for (int j = 0, i = na; j < ns && !rc; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        double t2 = 0, *sj = rest_s + (size_t)j * HES__MECH_MAX_FRICTION;
        for (int r = 0; r < c->n_friction_rows; r++, i++) {
            sj[r] = -lam[i];
            t2 += sj[r] * sj[r];
        }
        for (int r = 0; r < c->n_friction_rows; r++)
            sj[r] = t2 > 0 ? sj[r] / sqrt(t2) : 0;
    }
    free(lam);
    return rc;
}

int hes__mech_sliding_directions(const hes_mech_mode *md, double t, const double *x,
                                 const double *p, double *s, double *speed, double *s0)
{
    const hes_mech *m = md->mech;
    int d = m->d, ns = md->n_sliding, rc;
    hes__mech_eval ev;
    if ((rc = hes__mech_mode_eval(md, t, x, p, &ev))) {
        hes__mech_eval_close(&ev);
        return rc;
    }
    double *fm = malloc(sizeof(double) * ((size_t)2 * d + (size_t)ns * HES__MECH_MAX_FRICTION));
    if (!fm) {
        hes__mech_eval_close(&ev);
        return E_NOMEM;
    }
    double *row = fm + d, *rs = row + d, a, eps = hes__mech_blend_speed(ev.qd, d);
    for (int i = 0; i < d; i++)
        fm[i] = ev.f[i] - ev.c[i];
    rc = rest_directions(md, p, ev.q, ev.qd, ev.M, fm, rs);
    for (int j = 0; j < ns && !rc; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        size_t o = (size_t)j * HES__MECH_MAX_FRICTION;
        double v[HES__MECH_MAX_FRICTION] = { 0 };
        for (int r = 0; r < c->n_friction_rows && !rc; r++) {
            rc = hes__mech_row(m, &m->constraints[c->friction_rows[r]], ev.q, p, &a, row);
            for (int l = 0; l < d; l++)
                v[r] += row[l] * ev.qd[l];
        }
        memset(s + o, 0, sizeof(double) * HES__MECH_MAX_FRICTION);
        speed[j] = blended_direction(v, rs + o, c->n_friction_rows, eps, s + o);
        if (s0)
            memcpy(s0 + o, rs + o, sizeof(double) * HES__MECH_MAX_FRICTION);
    }
    free(fm);
    hes__mech_eval_close(&ev);
    return rc;
}

/* A held mode's constrained dynamics (hes_mech_mode.held; the equations
 * and their damping: lib/model/mech_hold.c's header). */
/* One constraint's drift (Da(q))' q' at q, q': its own, or central
 * differences of Da q' along q (+) t q' (row: d doubles, qs: nq of work). */
static int drift_of(const hes_mech *m, const hes_mech_constraint *c, const double *q,
                    const double *qd, const double *p, double *row, double *qs, double *out)
{
    if (c->drift)
        return c->drift(q, qd, p, out, hes_mech_constraint_data(m, c)) ? E_CALLBACK : 0;
    double vn = 0, a, sum[2];
    for (int i = 0; i < m->d; i++)
        vn += qd[i] * qd[i];
    double h = 1e-5 / fmax(1.0, sqrt(vn));
    for (int s = 0; s < 2; s++) {
        hes_mech_integrate(m, q, qd, s ? -h : h, qs);
        int rc = hes__mech_row(m, c, qs, p, &a, row);
        if (rc)
            return rc;
        sum[s] = 0;
        for (int i = 0; i < m->d; i++)
            sum[s] += row[i] * qd[i];
    }
    *out = (sum[0] - sum[1]) / (2 * h);
    return 0;
}

int hes__mech_held_dynamics(const hes_mech_mode *md, const double *p, double *q, double *qd,
                            double *M, const double *net, double *qdd, double *lambda)
{
    const hes_mech *m = md->mech;
    int d = m->d, na = md->n_active, rc = 0;
    size_t D = (size_t)d, A = (size_t)na, NQ = (size_t)hes_mech_nq(m);
    double *w = malloc(sizeof(double) * (2 * D * D + 3 * A * D + A * A + 5 * A + 2 * D + NQ));
    if (!w)
        return E_NOMEM;
    double *L = w, *J = L + D * D, *W = J + A * D, *SA = W + D * A, *rhs = SA + A * A,
           *av = rhs + A, *dr = av + A, *row = dr + A, *a0 = row + D, *qs = a0 + D,
           *B = qs + NQ, *rhs0 = B + A * D;
    memcpy(L, M, sizeof(double) * D * D);
    if ((rc = hes__mech_chol(L, d)) || (rc = hes__mech_rows(m, q, p, na, md->active, J)))
        goto out;
    /* rhs = -drift - 2 s Da v - s^2 a (holding rows) */
    for (int i = 0; i < na && !rc; i++) {
        const hes_mech_constraint *c = &m->constraints[md->active[i]];
        double jv = 0;
        for (int l = 0; l < d; l++)
            jv += J[i + (size_t)l * na] * qd[l];
        if ((rc = drift_of(m, c, q, qd, p, row, qs, &dr[i])))
            break;
        rhs[i] = -dr[i] - 2 * HES_MECH_HOLD_RATE * jv;
        if (!c->sticks) {
            if ((rc = hes__mech_row(m, c, q, p, &av[i], row)))
                break;
            rhs[i] -= HES_MECH_HOLD_RATE * HES_MECH_HOLD_RATE * av[i];
        }
    }
    if (rc)
        goto out;
    /* a0 = M^-1 (f - c); W = M^-1 Da^T; SA = Da W; lambda = SA^-1 (rhs - Da a0) */
    memcpy(a0, net, sizeof(double) * D);
    hes__mech_chol_solve(L, d, a0, 1);
    for (int j = 0; j < na; j++)
        for (int i = 0; i < d; i++)
            W[i + (size_t)j * d] = J[j + (size_t)i * na];
    hes__mech_chol_solve(L, d, W, na);
    hes__matmul(na, d, na, J, W, SA);
    for (int i = 0; i < na; i++) {
        double s = 0;
        for (int l = 0; l < d; l++)
            s += J[i + (size_t)l * na] * a0[l];
        rhs[i] -= s;
    }
    memcpy(rhs0, rhs, sizeof(double) * A);
    if (hes__mech_chol(SA, na)) {
        rc = E_DEPENDENT;
        goto out;
    }
    hes__mech_chol_solve(SA, na, rhs, 1);
    memcpy(qdd, a0, sizeof(double) * D);
    for (int i = 0; i < d; i++)   /* q'' = a0 + W lambda */
        for (int j = 0; j < na; j++)
            qdd[i] += W[i + (size_t)j * d] * rhs[j];
    /* sliding contacts: the forces along B (force_rows), from the same
       rows' accelerations: W = M^-1 B^T, (Da W) lambda = rhs - Da a0 */
    int any = 0;
    double rest_s[4 * HES__MECH_MAX_FRICTION], *rs = rest_s;
    if (md->n_sliding > 4 && !(rs = malloc(sizeof(double) * (size_t)md->n_sliding *
                                          HES__MECH_MAX_FRICTION))) {
        rc = E_NOMEM;
        goto out;
    }
    if (md->n_sliding > 0 &&
        !(rc = rest_directions(md, p, q, qd, M, net, rs)))
        rc = force_rows(md, q, qd, p, J, rs, B, &any);
    if (rs != rest_s)
        free(rs);
    if (rc)
        goto out;
    if (any) {
        for (int j = 0; j < na; j++)
            for (int i = 0; i < d; i++)
                W[i + (size_t)j * d] = B[j + (size_t)i * na];
        hes__mech_chol_solve(L, d, W, na);
        hes__matmul(na, d, na, J, W, SA);
        memcpy(rhs, rhs0, sizeof(double) * A);
        if (hes__lu_solve(na, SA, rhs)) {   /* not symmetric: LU (base/dense.c) */
            rc = E_DEPENDENT;
            goto out;
        }
        memcpy(qdd, a0, sizeof(double) * D);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < na; j++)
                qdd[i] += W[i + (size_t)j * d] * rhs[j];
    }
    if (lambda)
        memcpy(lambda, rhs, sizeof(double) * A);
    if ((rc = hes__mech_friction_ok(m, na, md->active, rhs, md->n_slip_watched,
                                    md->slip_watched)))   /* rhs: lambda */
        goto out;
out:
    free(w);
    return rc;
}

/* The held constraints' forces lambda (na) at the evaluated state:
 *     (Da M^-1 Da^T) lambda = Da q'' - Da M^-1 (f - c)
 * (M factorised in place). */
static int held_forces(const hes_mech_mode *md, const double *p, hes__mech_eval *e,
                       double *lambda)
{
    const hes_mech *m = md->mech;
    int d = m->d, na = md->n_active, rc;
    size_t D_ = (size_t)d, A_ = (size_t)na;
    double small[4 * S * S + 2 * S];
    hes__mech_work w;
    if (OPEN(&w, small, 3 * A_ * D_ + A_ * A_ + D_ + A_))
        return E_NOMEM;
    double *D = TAKE(&w, A_ * D_), *W = TAKE(&w, D_ * A_), *A = TAKE(&w, A_ * A_),
           *fm = TAKE(&w, D_), *r = TAKE(&w, A_), *B = TAKE(&w, A_ * D_), *M = e->M;
    const double *q = e->q, *f = e->f, *c = e->c, *qdd = e->qdd;
    int any = 0;
    for (int i = 0; i < d; i++)
        fm[i] = f[i] - c[i];
    /* the forces act along B: Da, or a sliding contact's row (force_rows,
       rest_directions) */
    double rest_s[4 * HES__MECH_MAX_FRICTION], *rs = rest_s;
    if (md->n_sliding > 4 && !(rs = malloc(sizeof(double) * (size_t)md->n_sliding *
                                          HES__MECH_MAX_FRICTION))) {
        hes__mech_work_close(&w);
        return E_NOMEM;
    }
    if (!(rc = hes__mech_rows(m, q, p, na, md->active, D)) &&
        (md->n_sliding < 1 ||
         !(rc = rest_directions(md, p, e->q, e->qd, M, fm, rs))) &&
        !(rc = force_rows(md, q, e->qd, p, D, rs, B, &any)))
        rc = hes__mech_chol(M, d);
    if (rs != rest_s)
        free(rs);
    if (!rc) {
        for (int j = 0; j < na; j++) /* W = M^-1 B^T */
            for (int i = 0; i < d; i++)
                W[i + (size_t)j * d] = B[j + (size_t)i * na];
        hes__mech_chol_solve(M, d, W, na);
        hes__mech_chol_solve(M, d, fm, 1);
        hes__matmul(na, d, na, D, W, A);
        for (int i = 0; i < na; i++) {
            double s = 0;
            for (int l = 0; l < d; l++)
                s += D[i + (size_t)l * na] * (qdd[l] - fm[l]);
            r[i] = s;
        }
        if (any)
            rc = hes__lu_solve(na, A, r) ? E_DEPENDENT : 0;
        else if (hes__mech_chol(A, na))
            rc = E_DEPENDENT;
        else
            hes__mech_chol_solve(A, na, r, 1);
    }
    if (!rc)
        memcpy(lambda, r, sizeof(double) * (size_t)na);
    hes__mech_work_close(&w);
    return rc;
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
    assert(d >= 1 && k >= 1 && k <= d && na >= 0 && na <= m->n_constraints);
    hes__mech_eval ev, *e = &ev;
    if ((rc = hes__mech_mode_eval(md, t, x, p, e))) {
        hes__mech_eval_close(e);
        return rc;
    }
    const double *qd = e->qd;
    memcpy(zdd, e->zdd, sizeof(double) * (size_t)k);
    if (kinetic) {
        double s = 0;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++)
                s += qd[i] * e->M[i + (size_t)j * d] * qd[j];
        *kinetic = 0.5 * s;
    }
    if (q_out)
        memcpy(q_out, e->q, sizeof(double) * (size_t)hes_mech_nq(md->mech));
    if (qd_out)
        memcpy(qd_out, qd, sizeof(double) * (size_t)d);
    rc = lambda && na > 0 ? held_forces(md, p, e, lambda) : 0;
    hes__mech_eval_close(e);
    return rc;
}

int hes_mech_field(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_mode *md = data;
    int k = md->k, kq = hes__mech_kq(md);
    if (md->chart)
        memcpy(out, x + k, sizeof(double) * (size_t)k);
    else {   /* q' = G(q) v: the quaternions' rates from their angular velocities */
        hes_mech_qdot(md->mech, x, x + kq, out);
        hes__mech_quat_pull(md->mech, x, out, NULL, 0);
    }
    return mode_dynamics(md, t, x, p, out + kq, NULL, NULL, NULL, NULL);
}

/* The status of a public call whose mechanical computation gave code rc. */
static hes_status status_of(int rc)
{
    return rc == 0 ? HES_OK : rc == E_NOMEM ? HES_ENOMEM : HES_EMODEL;
}

hes_status hes_mech_mode_state(const hes_mech_mode *md, double t, const double *x,
                               const double *p, double *q, double *qd, double *lambda,
                               double *kinetic)
{
    if (!md || !x)
        return HES_EINVAL;
    double small[S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)md->k))
        return HES_ENOMEM;
    int rc = mode_dynamics(md, t, x, p, TAKE(&w, (size_t)md->k), q, qd, lambda, kinetic);
    hes__mech_work_close(&w);
    return status_of(rc);
}

/* The mode's motion in its mechanical system's coordinates at x = [z, z']:
 * q, q' and q'' = Phi z'' + D^2 chart[z', z'], z'' the mode's dynamics. */
int hes__mech_mode_motion(const hes_mech_mode *md, double t, const double *x, const double *p,
                          double *q, double *qd, double *qdd)
{
    int d = md->mech->d, k = md->k, rc;
    double small[S + S * S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)k + (size_t)d * k))
        return E_NOMEM;
    double *zdd = TAKE(&w, (size_t)k), *Phi = TAKE(&w, (size_t)d * k);
    if (!(rc = mode_dynamics(md, t, x, p, zdd, NULL, NULL, NULL, NULL)) &&
        !(rc = hes__mech_chart_state(md, x, x + hes__mech_kq(md), p, q, Phi, qd, qdd)))
        for (int i = 0; i < d; i++)
            for (int j = 0; j < k; j++)
                qdd[i] += Phi[i + (size_t)j * d] * zdd[j];
    hes__mech_work_close(&w);
    return rc;
}

/* The event's configuration and velocity (qd NULL: the configuration
 * alone, which a guard needs): through the lift, or the source mode's
 * chart. */
/* Whether a transition without a lift reaches its event's mechanical
 * system from the source mode's state: the source's own system, or (no
 * chart) another of the same coordinates (an impact's, whose constraints
 * differ), q being the state's first values either way. */
static int lift_free(const hes_mech_transition *tr)
{
    const hes_mech *src = tr->from->mech, *ev = tr->mech;
    return !ev || ev == src ||
           (!tr->from->chart && ev->d == src->d && hes_mech_nq(ev) == hes_mech_nq(src));
}

static int event_state(const hes_mech_transition *tr, const double *x, const double *p,
                       double *q, double *qd, const hes_mech **em)
{
    const hes_mech_mode *md = tr->from;
    const hes_mech *m = tr->mech ? tr->mech : md->mech;
    int k = md->k, d = m->d;
    *em = m;
    if (!qd) {
        if (!tr->lift && !lift_free(tr))
            return E_DIM;
        if (tr->lift || md->chart)
            return (tr->lift ? tr->lift : md->chart)(x, p, q, m->data) ? E_CALLBACK : 0;
        memcpy(q, x, sizeof(double) * (size_t)hes_mech_nq(m));
        return 0;
    }
    if (!tr->lift)
        return !lift_free(tr) ? E_DIM
                              : hes__mech_chart_state(md, x, x + hes__mech_kq(md), p, q, NULL,
                                                      qd, NULL);
    double small[S * S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)d * k))
        return E_NOMEM;
    double *J = TAKE(&w, (size_t)d * k);
    int rc = eval_with_jac(tr->lift, tr->lift_dz, x, k, d, p, m->data, q, J);
    if (!rc)
        hes__matmul(d, k, 1, J, x + k, qd);
    hes__mech_work_close(&w);
    return rc;
}

hes_status hes_mech_event_state(const hes_mech_transition *tr, const double *x,
                                const double *p, double *q, double *qd)
{
    const hes_mech *m;
    if (!tr || !x || !q || !qd)
        return HES_EINVAL;
    return status_of(event_state(tr, x, p, q, qd, &m));
}

/* A slip's guard: mu lambda_n - |lambda_t| of the held contact whose
 * normal is at pos among md's held constraints (lam their forces), into
 * *out; E_NOTHELD when its friction rows are not held (it slides
 * already). */
static int slip_margin(const hes_mech_mode *md, int pos, const double *lam, double *out)
{
    const hes_mech *m = md->mech;
    const hes_mech_constraint *c = &m->constraints[md->active[pos]];
    double t2 = 0;
    for (int r = 0; r < c->n_friction_rows; r++) {
        int found = 0;
        for (int j = 0; j < md->n_active; j++)
            if (md->active[j] == c->friction_rows[r]) {
                t2 += lam[j] * lam[j];
                found = 1;
            }
        if (!found)
            return E_NOTHELD;
    }
    *out = c->mu * lam[pos] - sqrt(t2);
    return 0;
}

int hes__mech_without_cones(const hes_mech_mode *md, hes__mech_uncone *u)
{
    /* every held contact's cone "watched": hes__mech_friction_ok skips them */
    u->cons = NULL;
    u->mech = *md->mech;
    u->mode = *md;
    u->mode.n_slip_watched = md->n_active;
    u->mode.slip_watched = md->active;
    return 0;
}

int hes__mech_sliding_rate(const hes_mech *m, const hes_mech_constraint *c, const double *x,
                           const double *p, double *vt, double *dvt)
{
    int d = m->d, nq = hes_mech_nq(m), nf = c->n_friction_rows, rc = 0;
    size_t n = (size_t)nq + (size_t)d;
    double *row = malloc(sizeof(double) * ((size_t)d + (size_t)nq)), a;
    if (!row)
        return E_NOMEM;
    double *qs = row + d;
    for (int r = 0; r < nf && !rc; r++) {
        const hes_mech_constraint *t = &m->constraints[c->friction_rows[r]];
        if ((rc = hes__mech_row(m, t, x, p, &a, row)))
            break;
        vt[r] = 0;
        for (int l = 0; l < d; l++) {
            vt[r] += row[l] * x[nq + l];
            if (dvt)
                dvt[r + (size_t)(nq + l) * HES__MECH_MAX_FRICTION] = row[l];
        }
        for (int i = 0; i < nq && dvt && !rc; i++) {
            double h = 1e-6 * fmax(1.0, fabs(x[i])), v2[2];
            for (int sg = 0; sg < 2 && !rc; sg++) {
                memcpy(qs, x, sizeof(double) * (size_t)nq);
                qs[i] += sg ? -h : h;
                rc = hes__mech_row(m, t, qs, p, &a, row);
                v2[sg] = 0;
                for (int l = 0; l < d; l++)
                    v2[sg] += row[l] * x[nq + l];
            }
            dvt[r + (size_t)i * HES__MECH_MAX_FRICTION] = (v2[0] - v2[1]) / (2 * h);
        }
    }
    (void)n;
    free(row);
    return rc;
}

/* A stick's guard |v_t| - HES_MECH_STICK_SPEED (1 + |q'|) at x = [q, v]
 * and, with grad, its gradient (n = nq + d values). */
static int stick_guard(const hes_mech_transition *tr, const double *x, const double *p,
                       double *g, double *grad)
{
    const hes_mech *m = tr->from->mech;
    const hes_mech_constraint *c = &m->constraints[tr->constraint];
    int d = m->d, nq = hes_mech_nq(m), nf = c->n_friction_rows, rc;
    if (tr->from->chart || nf < 1 || nf > HES__MECH_MAX_FRICTION || !c->friction_rows)
        return E_CALLBACK;
    size_t n = (size_t)nq + (size_t)d;
    double vt[HES__MECH_MAX_FRICTION], *dvt = NULL, vn = 0, qn = 0;
    if (grad && !(dvt = malloc(sizeof(double) * HES__MECH_MAX_FRICTION * n)))
        return E_NOMEM;
    if (!(rc = hes__mech_sliding_rate(m, c, x, p, vt, dvt))) {
        for (int r = 0; r < nf; r++)
            vn += vt[r] * vt[r];
        for (int l = 0; l < d; l++)
            qn += x[nq + l] * x[nq + l];
        vn = sqrt(vn), qn = sqrt(qn);
        *g = vn - HES_MECH_STICK_SPEED * (1 + qn);
        for (size_t i = 0; grad && i < n; i++) {   /* d|v_t| = s^T dv_t, s = v_t / |v_t| */
            double gi = 0;
            for (int r = 0; r < nf && vn > 0; r++)
                gi += vt[r] / vn * dvt[r + i * HES__MECH_MAX_FRICTION];
            if (i >= (size_t)nq && qn > 0)
                gi -= HES_MECH_STICK_SPEED * x[i] / qn;
            grad[i] = gi;
        }
    }
    free(dvt);
    return rc;
}

/* The held constraints' forces of mode md at x (lam: md->n_active), no
 * friction cone checked. */
static int forces_without_cones(const hes_mech_mode *md, double t, const double *x,
                                const double *p, double *lam)
{
    hes__mech_uncone u;
    if (hes__mech_without_cones(md, &u))
        return E_NOMEM;
    double small[S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)u.mode.k)) {
        free(u.cons);
        return E_NOMEM;
    }
    int rc = mode_dynamics(&u.mode, t, x, p, TAKE(&w, (size_t)u.mode.k), NULL, NULL, lam, NULL);
    hes__mech_work_close(&w);
    free(u.cons);
    return rc;
}

int hes_mech_guard(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    if (tr->kind == HES_MECH_STICK)
        return stick_guard(tr, x, p, out, NULL);
    if (tr->kind != HES_MECH_ACTIVATE) {
        /* the held force itself (a release), or mu lambda_n - |lambda_t|
           (a slip), without the friction cones: a foot's tangential force
           may leave its cone as its normal one nears 0, and the guard
           must still find where that reaches 0 */
        const hes_mech_mode *md = tr->from;
        int pos = -1;
        for (int i = 0; i < md->n_active; i++)
            if (md->active[i] == tr->constraint)
                pos = i;
        if (pos < 0)
            return E_NOTHELD;
        double small[S];
        hes__mech_work w;
        if (OPEN(&w, small, (size_t)md->n_active))
            return E_NOMEM;
        double *lam = TAKE(&w, (size_t)md->n_active);
        int rc = forces_without_cones(md, t, x, p, lam);
        if (!rc)
            out[0] = lam[pos];
        if (!rc && tr->kind == HES_MECH_SLIP)   /* the cones from the mode itself */
            rc = slip_margin(tr->from, pos, lam, out);
        hes__mech_work_close(&w);
        return rc;
    }
    const hes_mech *m = tr->mech ? tr->mech : tr->from->mech;
    double small[2 * S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)hes_mech_nq(m)))
        return E_NOMEM;
    double *q = TAKE(&w, (size_t)hes_mech_nq(m));
    int rc = event_state(tr, x, p, q, NULL, &m);
    if (!rc) {
        const hes_mech_constraint *c = &m->constraints[tr->constraint];
        rc = c->a(q, p, out, hes_mech_constraint_data(m, c)) ? E_CALLBACK : 0;
    }
    hes__mech_work_close(&w);
    return rc;
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
    int k = md->k, kq = hes__mech_kq(md), rc;
    if (tr->kind == HES_MECH_STICK) {   /* near |v_t| = 0: no difference step fits */
        double g;
        return stick_guard(tr, x, p, &g, out);
    }
    if (tr->kind != HES_MECH_ACTIVATE) {
        guard_ctx g = { tr, t, p };
        return hes__mech_fd4(guard_of_x, &g, x, kq + k, 1, out);
    }
    const hes_mech *m = tr->mech ? tr->mech : md->mech;
    int d = m->d, nq = hes_mech_nq(m), quat = !md->chart && !tr->lift && nq > d;
    size_t D = (size_t)d, NQ = (size_t)nq;
    double small[4 * S + 2 * S * S], a;
    hes__mech_work w;
    if (OPEN(&w, small, NQ + 2 * D + D * (size_t)k + (quat ? D * NQ : 0)))
        return E_NOMEM;
    double *q = TAKE(&w, NQ), *row = TAKE(&w, D), *qd = TAKE(&w, D), *J = TAKE(&w, D * k);
    if (tr->lift)
        rc = eval_with_jac(tr->lift, tr->lift_dz, x, k, d, p, m->data, q, J);
    else if (!lift_free(tr))
        rc = E_DIM;
    else
        rc = hes__mech_chart_state(md, x, x + kq, p, q, J, qd, NULL);
    const hes_mech_constraint *c = &m->constraints[tr->constraint];
    if (!rc)
        rc = hes__mech_row(m, c, q, p, &a, row);
    for (int j = 0; j < k && !rc; j++) {
        double s = 0;
        for (int l = 0; l < d; l++)
            s += row[l] * J[l + (size_t)j * d];
        out[kq + j] = 0;
        if (!quat)
            out[j] = s;
        else
            row[j] = s;   /* J is the identity: the row itself */
    }
    if (!rc && quat) {
        /* a function of q / |q|: its gradient in the coordinates is the row along
           velocities times P = d(y (-) q)/dy */
        double *P = TAKE(&w, D * NQ);
        hes_mech_difference_dq(m, q, P);
        hes__matmul(1, d, nq, row, P, out);
    }
    hes__mech_work_close(&w);
    return rc;
}

/* An activation's or a stick's guard does not depend on time; a release's
 * (through the inputs) by central differences. */
int hes_mech_guard_dt(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    if (tr->kind == HES_MECH_ACTIVATE || tr->kind == HES_MECH_STICK) {
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
    double small[S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)m->d))
        return E_NOMEM;
    double *row = TAKE(&w, (size_t)m->d);
    int rc = 0;
    for (int s = 0; s < tr->n_separate && !rc; s++) {
        double a, sv = 0;
        const hes_mech_constraint *c = &m->constraints[tr->separate[s]];
        rc = hes__mech_row(m, c, q, p, &a, row);
        for (int i = 0; i < m->d && !rc; i++)
            sv += row[i] * qdp[i];
        if (!rc && sv < -1e-10 * (1.0 + vscale))
            rc = E_NOSEPARATE;
    }
    hes__mech_work_close(&w);
    return rc;
}

/* The impact's arrays: M, its factor L (d x d), the rows D (na x d), W =
 * M^-1 D^T (d x na), A = D W (na x na), and na-vectors. */
typedef struct {
    double *M, *L, *D, *W, *A, *v, *lam, *v0, *vp, *gam;
} impact_arrays;
#define IMPACT_NEED(d, na) (2 * (d) * (d) + 2 * (na) * (d) + (na) * (na) + 5 * (na))

/* Another law's outcome (hes_mech_transition.impact), then the checks
 * below (no pulling impulse is not checked: the law's impulses are its
 * own); D and M are set. */
static int impact_other(const hes_mech_transition *tr, const hes_mech *m, const double *q,
                        const double *p, const double *qdm, double *qdp, double *impulse,
                        impact_arrays *ar)
{
    int d = m->d, na = tr->n_after;
    if (tr->impact(q, qdm, p, qdp, tr->impact_ctx))
        return E_LAW;
    double *v0 = ar->v0, *vp = ar->vp, vscale = 0;
    hes__matmul(na, d, 1, ar->D, qdm, v0);
    hes__matmul(na, d, 1, ar->D, qdp, vp);
    for (int i = 0; i < na; i++)
        vscale = fmax(vscale, fabs(v0[i]));
    for (int i = 0; i < na; i++) {
        if (fabs(vp[i] + m->constraints[tr->after[i]].restitution * v0[i]) >
            1e-6 * (1.0 + vscale))
            return E_IMPACT;
        if (impulse)
            impulse[i] = NAN;
    }
    if (kinetic_energy(ar->M, qdp, d) > kinetic_energy(ar->M, qdm, d) * (1 + 1e-10) + 1e-14)
        return E_ENERGY;
    return separating(tr, m, q, p, qdp, vscale);
}

/* The impact law of eq. 3-4 with its checks at the event's q, q'-. */
static int impact_law(const hes_mech_transition *tr, const hes_mech *m, const double *q,
                      const double *p, const double *qdm, double *qdp, double *impulse,
                      impact_arrays *ar)
{
    int d = m->d, na = tr->n_after, rc;
    double *M = ar->M, *L = ar->L, *D = ar->D, *W = ar->W, *A = ar->A, *v = ar->v,
           *lam = ar->lam, *gam = ar->gam, *vp = ar->vp;
    if (m->mass(q, p, M, m->data))
        return E_CALLBACK;
    memcpy(L, M, sizeof(double) * (size_t)d * d);
    if ((rc = hes__mech_chol(L, d)))
        return rc;
    if ((rc = hes__mech_rows(m, q, p, na, tr->after, D)))
        return rc;
    if (tr->impact)
        return impact_other(tr, m, q, p, qdm, qdp, impulse, ar);
    for (int j = 0; j < na; j++)
        for (int i = 0; i < d; i++)
            W[i + (size_t)j * d] = D[j + (size_t)i * na];
    hes__mech_chol_solve(L, d, W, na);               /* W = M^-1 Da^T */
    hes__matmul(na, d, na, D, W, A);       /* A = Da M^-1 Da^T */
    hes__matmul(na, d, 1, D, qdm, v);      /* Da q'- */
    double vscale = 0;
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
    double ke_m = kinetic_energy(M, qdm, d), ke_p = kinetic_energy(M, qdp, d);
    hes__matmul(na, d, 1, D, qdp, vp);
    int plastic_ish = 1;
    for (int i = 0; i < na; i++) {
        if (fabs(vp[i] + gam[i] * v[i]) > 1e-8 * (1.0 + vscale))
            return E_IMPACT;
        if (tr->kind != HES_MECH_STICK && m->constraints[tr->after[i]].unilateral &&
            -lam[i] < -1e-10 * (1.0 + fabs(lam[i])))
            return HES__MECH_IMPULSE_AT + tr->after[i];
        plastic_ish &= gam[i] <= 1.0;
        if (impulse)
            impulse[i] = -lam[i];
    }
    if (plastic_ish && ke_p > ke_m * (1 + 1e-10) + 1e-14)
        return E_ENERGY;
    /* the impulses, -lam, in their friction cones, when the target holds its
       contacts by their forces (a pinned chart's contact is an ideal pin) */
    /* (not a stick's: its impulse is the rest of a continuous stop, of the
       size of HES_MECH_STICK_SPEED, and the target's forces are checked) */
    for (int i = 0; tr->to && tr->to->held && i < na; i++)
        vp[i] = -lam[i];
    if (tr->kind != HES_MECH_STICK && tr->to && tr->to->held &&
        (rc = hes__mech_friction_ok(m, na, tr->after, vp, 0, NULL)))
        return rc;
    return separating(tr, m, q, p, qdp, vscale);
}

/* The impact at the transition's event: q, q'-, qd_plus and the impulses. */
static int impact(const hes_mech_transition *tr, const double *x, const double *p, double *q,
                  double *qdm, double *qdp, double *impulse)
{
    const hes_mech *m;
    int rc = event_state(tr, x, p, q, qdm, &m);
    if (rc)
        return rc;
    int d = m->d,
        na = tr->kind == HES_MECH_ACTIVATE || tr->kind == HES_MECH_STICK ? tr->n_after : 0;
    memcpy(qdp, qdm, sizeof(double) * (size_t)d);
    if (na == 0)
        return 0;
    size_t D = (size_t)d, A = (size_t)na;
    double small[IMPACT_NEED(S, S)];
    hes__mech_work w;
    if (OPEN(&w, small, IMPACT_NEED(D, A)))
        return E_NOMEM;
    impact_arrays ar = { TAKE(&w, D * D), TAKE(&w, D * D), TAKE(&w, A * D), TAKE(&w, D * A),
                         TAKE(&w, A * A), TAKE(&w, A), TAKE(&w, A), TAKE(&w, A), TAKE(&w, A),
                         TAKE(&w, A) };
    rc = impact_law(tr, m, q, p, qdm, qdp, impulse, &ar);
    hes__mech_work_close(&w);
    return rc;
}

hes_status hes_mech_impact(const hes_mech_transition *tr, const double *x, const double *p,
                           double *q, double *qd_minus, double *qd_plus, double *impulse)
{
    if (!tr || !x)
        return HES_EINVAL;
    const hes_mech *m = tr->mech ? tr->mech : tr->from->mech;
    size_t d = (size_t)m->d, na = tr->kind == HES_MECH_ACTIVATE ? (size_t)tr->n_after : 0,
           nq = (size_t)hes_mech_nq(m);
    double small[5 * S];
    hes__mech_work w;
    if (OPEN(&w, small, nq + 2 * d + na))
        return HES_ENOMEM;
    double *qq = TAKE(&w, nq), *qm = TAKE(&w, d), *qp = TAKE(&w, d), *imp = TAKE(&w, na);
    int rc = impact(tr, x, p, qq, qm, qp, imp);
    if (!rc && q)
        memcpy(q, qq, sizeof(double) * nq);
    if (!rc && qd_minus)
        memcpy(qd_minus, qm, sizeof(double) * d);
    if (!rc && qd_plus)
        memcpy(qd_plus, qp, sizeof(double) * d);
    if (!rc && impulse && na > 0)
        memcpy(impulse, imp, sizeof(double) * na);
    hes__mech_work_close(&w);
    return status_of(rc);
}

/* A mode held by its contacts' forces at state x: its unilateral
 * constraints bear their forces (a negative one means the constraint
 * leaves at once, and holding it would pull silently: the contact set of
 * the complementarity conditions, checked rather than chosen), and its
 * friction cones hold them (mode_dynamics checks those).  0, or a code:
 * HES__MECH_PULL_AT + the constraint, HES__MECH_SLIP_AT + the contact. */
static int held_forces_ok(const hes_mech_mode *md, double t, const double *x, const double *p)
{
    int na = md->n_active, rc;
    if (!md->held || na < 1)
        return 0;
    double small[2 * S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)md->k + (size_t)na))
        return E_NOMEM;
    double *zdd = TAKE(&w, (size_t)md->k), *lam = TAKE(&w, (size_t)na), big = 0;
    if (!(rc = mode_dynamics(md, t, x, p, zdd, NULL, NULL, lam, NULL))) {
        for (int i = 0; i < na; i++)
            big = fmax(big, fabs(lam[i]));
        for (int i = 0; i < na && !rc; i++)
            if (md->mech->constraints[md->active[i]].unilateral &&
                lam[i] < -1e-6 * (1.0 + big))
                rc = HES__MECH_PULL_AT + md->active[i];
    }
    hes__mech_work_close(&w);
    return rc;
}

/* A sliding contact at rest (its speed at most HES_MECH_STICK_SPEED (1 +
 * |q'|)) must bear, sticking, a force at or beyond its cone: inside it the
 * contact sticks, and a slide from there would chatter about rest (its
 * friction, mu lambda_n, overpowering the force that pushes it).  A slip
 * event enters a slide at the cone; a start state may be anywhere.  0, or
 * HES__MECH_STICKS_AT + the contact (its normal). */
static int rest_outside_cones(const hes_mech_mode *md, double t, const double *x,
                              const double *p)
{
    const hes_mech *m = md->mech;
    int na = md->n_active, ns = md->n_sliding, d = m->d, nq = hes_mech_nq(m), rc;
    if (!md->held || md->chart || ns < 1 || md->sliding_s)
        return 0;
    double *lam = malloc(sizeof(double) * ((size_t)na + (size_t)ns * HES__MECH_MAX_FRICTION) +
                         sizeof(double) * (size_t)d);
    if (!lam)
        return E_NOMEM;
    double *fm = lam + na + (size_t)ns * HES__MECH_MAX_FRICTION, vs = 0, big = 0;
    hes__mech_eval ev;
    if (!(rc = hes__mech_mode_eval(md, t, x, p, &ev))) {
        for (int i = 0; i < d; i++)
            fm[i] = ev.f[i] - ev.c[i];
        rc = stick_forces(md, p, ev.q, ev.qd, ev.M, fm, lam);
    }
    hes__mech_eval_close(&ev);
    for (int l = 0; l < d; l++)
        vs += x[nq + l] * x[nq + l];
    int filled = na;   /* stick_forces' values: n_active, then the friction rows */
    for (int j = 0; j < ns; j++)
        filled += m->constraints[md->sliding[j]].n_friction_rows;
    for (int i = 0; i < filled && !rc; i++)
        big = fmax(big, fabs(lam[i]));
    for (int j = 0, k = na; j < ns && !rc; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        double vt[HES__MECH_MAX_FRICTION], sp = 0, t2 = 0, ln = 0;
        if ((rc = hes__mech_sliding_rate(m, c, x, p, vt, NULL)))
            break;
        for (int r = 0; r < c->n_friction_rows; r++, k++) {
            sp += vt[r] * vt[r];
            t2 += lam[k] * lam[k];
        }
        for (int i = 0; i < na; i++)
            if (md->active[i] == md->sliding[j])
                ln = lam[i];
        if (sqrt(sp) <= HES_MECH_STICK_SPEED * (1 + sqrt(vs)) &&
            sqrt(t2) < c->mu * ln - 1e-6 * (1 + big))
            rc = HES__MECH_STICKS_AT + md->sliding[j];
    }
    free(lam);
    return rc;
}

int hes_mech_admissible(double t, const double *x, const double *p, double *out, void *data)
{
    (void)out;
    if (!data || !x)
        return E_CALLBACK;
    int rc = held_forces_ok(data, t, x, p);
    return rc ? rc : rest_outside_cones(data, t, x, p);
}

/* The perturbations a sliding phase's flow is differentiable along, where
 * a sliding contact starts from rest (its speed at most
 * HES_MECH_STICK_SPEED (1 + |q'|)).  The slip that starts the phase leaves
 * its tangential velocity unperturbed: the sticking mode before held it
 * at zero, and at the cone the friction is continuous, so the saltation
 * is the identity.  Along any other perturbation of it the sliding
 * direction would turn at a rate mu lambda_n |W| / |w| (mech.c:
 * hes__mech_blend_speed), a transient of the variational equations that
 * no event can start and no step size can follow.  The projector along
 * the contacts' own impulse directions,
 *     P = I - B (C B)^-1 C,   C = d(v_t)/dx,   B = [0; M^-1 Da_t^T],
 * keeps every perturbation with C dx = 0 and removes the rest, the
 * projection an impulse on the contact makes. */
int hes_mech_consistent(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_mode *md = data;
    const hes_mech *m = md->mech;
    int d = m->d, nq = hes_mech_nq(m), rc = 0, k = 0;
    size_t n = (size_t)(hes__mech_kq(md) + md->k), MF = HES__MECH_MAX_FRICTION;
    memset(out, 0, sizeof(double) * n * n);
    for (size_t i = 0; i < n; i++)
        out[i * (n + 1)] = 1;
    if (!md->held || md->chart || md->n_sliding < 1 || md->sliding_s)
        return 0;
    size_t cap = (size_t)md->n_sliding * MF;
    double *buf = malloc(sizeof(double) * (cap * n + n * MF + (size_t)d * cap +
                                           (size_t)d * d + cap * cap));
    if (!buf)
        return E_NOMEM;
    double *C = buf, *dvt = C + cap * n, *Bv = dvt + n * MF, *L = Bv + (size_t)d * cap,
           *CB = L + (size_t)d * d, vs = 0, vt[HES__MECH_MAX_FRICTION];
    for (int l = 0; l < d; l++)
        vs += x[nq + l] * x[nq + l];
    /* C (k x n, row-major here: row r at C + r n): the at-rest contacts' rows */
    for (int j = 0; j < md->n_sliding && !rc; j++) {
        const hes_mech_constraint *c = &m->constraints[md->sliding[j]];
        double sp = 0;
        if ((rc = hes__mech_sliding_rate(m, c, x, p, vt, dvt)))
            break;
        for (int r = 0; r < c->n_friction_rows; r++)
            sp += vt[r] * vt[r];
        if (sqrt(sp) > HES_MECH_STICK_SPEED * (1 + sqrt(vs)))
            continue;
        for (int r = 0; r < c->n_friction_rows; r++, k++)
            for (size_t i = 0; i < n; i++)
                C[(size_t)k * n + i] = dvt[r + i * MF];
    }
    hes__mech_eval ev;
    int opened = !rc && k > 0;
    if (opened && !(rc = hes__mech_mode_eval(md, t, x, p, &ev))) {
        memcpy(L, ev.M, sizeof(double) * (size_t)d * d);
        if (hes__mech_chol(L, d))
            rc = E_DEPENDENT;
        /* Bv = M^-1 Da_t^T (d x k), Da_t the rows' v part */
        for (int r = 0; r < k && !rc; r++)
            for (int l = 0; l < d; l++)
                Bv[l + (size_t)r * d] = C[(size_t)r * n + (size_t)nq + l];
        if (!rc)
            hes__mech_chol_solve(L, d, Bv, k);
        /* CB = Da_t M^-1 Da_t^T (k x k), then out -= B (CB)^-1 C column by column */
        for (int a = 0; a < k && !rc; a++)
            for (int b = 0; b < k; b++) {
                double sum = 0;
                for (int l = 0; l < d; l++)
                    sum += C[(size_t)a * n + (size_t)nq + l] * Bv[l + (size_t)b * d];
                CB[a + (size_t)b * k] = sum;
            }
        if (!rc && hes__mech_chol(CB, k))
            rc = E_DEPENDENT;
        for (size_t i = 0; i < n && !rc; i++) {
            double y[4 * HES__MECH_MAX_FRICTION], *yy = k <= 4 * HES__MECH_MAX_FRICTION ? y : NULL;
            if (!yy && !(yy = malloc(sizeof(double) * (size_t)k))) {
                rc = E_NOMEM;
                break;
            }
            for (int a = 0; a < k; a++)
                yy[a] = C[(size_t)a * n + i];
            hes__mech_chol_solve(CB, k, yy, 1);
            for (int l = 0; l < d; l++) {
                double sum = 0;
                for (int a = 0; a < k; a++)
                    sum += Bv[l + (size_t)a * d] * yy[a];
                out[(size_t)nq + l + i * n] -= sum;
            }
            if (yy != y)
                free(yy);
        }
    }
    if (opened)
        hes__mech_eval_close(&ev);
    free(buf);
    return rc;
}

/* A release under finite friction: the contact's tangential force must
 * have vanished with its normal one.  Where it has not, |lambda_t| passed
 * mu lambda_n before the normal force reached zero, between the
 * integrator's samples of the cone: the foot slides first, and letting it
 * go sticking would be wrong silently.  x: the source's state at the
 * event.  0, or HES__MECH_SLIP_AT + the contact. */
static int release_slip(const hes_mech_transition *tr, double t, const double *x,
                        const double *p)
{
    const hes_mech_constraint *c = &tr->from->mech->constraints[tr->constraint];
    if (tr->kind != HES_MECH_RELEASE || !tr->from->held || !(c->mu > 0) || isinf(c->mu) ||
        c->n_friction_rows < 1 || !c->friction_rows)
        return 0;   /* a pinned chart's contact is an ideal pin: no cone */
    const hes_mech_mode *md = tr->from;
    double small[S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)md->n_active))
        return E_NOMEM;
    double *lam = TAKE(&w, (size_t)md->n_active);
    int rc = forces_without_cones(md, t, x, p, lam);
    double big = 0, t2 = 0, ln = 0;
    for (int i = 0; i < md->n_active && !rc; i++) {
        big = fmax(big, fabs(lam[i]));
        if (md->active[i] == tr->constraint)
            ln = lam[i];
        for (int r = 0; r < c->n_friction_rows; r++)
            if (md->active[i] == c->friction_rows[r])
                t2 += lam[i] * lam[i];
    }
    if (!rc && sqrt(t2) > c->mu * fmax(ln, 0) + 1e-6 * (1 + big))
        rc = HES__MECH_SLIP_AT + tr->constraint;
    hes__mech_work_close(&w);
    return rc;
}

/* Whether constraint c is among the n listed. */
static int listed(const int *idx, int n, int c)
{
    for (int i = 0; i < n; i++)
        if (idx[i] == c)
            return 1;
    return 0;
}

/* The unilateral constraints that the event lets go at rest (held by the
 * source mode or stopped by the impact, not held by the target, on their
 * surface with no velocity) move off it: their acceleration in the target
 * mode, Da q'' + (Da)' q', must not point into them.  A released contact
 * whose force reached zero leaves at third order, its acceleration zero;
 * one that would be pressed back has no consistent motion at all (a
 * no-slip foot that loses a tangential force with its normal one).  x:
 * the target's state.  0, or HES__MECH_PRESSED_AT + the constraint. */
static int leaving_accelerations(const hes_mech_transition *tr, double t, const double *x,
                                 const double *p)
{
    const hes_mech_mode *to = tr->to, *from = tr->from;
    const hes_mech *m = to->mech;
    if (to->chart || from->chart || from->mech->d != m->d ||
        hes_mech_nq(from->mech) != hes_mech_nq(m))
        return 0;
    int d = m->d, nq = hes_mech_nq(m), rc = 0, any = 0;
    for (int c = 0; c < m->n_constraints && !any; c++)
        any = m->constraints[c].unilateral && !listed(to->active, to->n_active, c) &&
              (listed(from->active, from->n_active, c) || listed(tr->after, tr->n_after, c));
    if (!any)
        return 0;
    double small[6 * S];
    hes__mech_work w;
    if (OPEN(&w, small, 4 * (size_t)d + 2 * (size_t)nq))
        return E_NOMEM;
    double *q = TAKE(&w, (size_t)nq), *qd = TAKE(&w, (size_t)d), *qdd = TAKE(&w, (size_t)d),
           *row = TAKE(&w, (size_t)d), *qs = TAKE(&w, (size_t)nq), *row2 = TAKE(&w, (size_t)d);
    if ((rc = hes__mech_mode_motion(to, t, x, p, q, qd, qdd))) {
        hes__mech_work_close(&w);
        return rc;
    }
    double vs = 0, as = 0;
    for (int i = 0; i < d; i++)
        vs = fmax(vs, fabs(qd[i])), as = fmax(as, fabs(qdd[i]));
    for (int c = 0; c < m->n_constraints && !rc; c++) {
        const hes_mech_constraint *k = &m->constraints[c];
        if (!k->unilateral || listed(to->active, to->n_active, c) ||
            !(listed(from->active, from->n_active, c) || listed(tr->after, tr->n_after, c)))
            continue;
        double a, v = 0, acc = 0, dr = 0, rn = 0;
        if ((rc = hes__mech_row(m, k, q, p, &a, row)))
            break;
        for (int i = 0; i < d; i++)
            v += row[i] * qd[i], acc += row[i] * qdd[i], rn = fmax(rn, fabs(row[i]));
        if (fabs(a) > 1e-9 * (1 + fabs(a)) || fabs(v) > 1e-8 * (1 + rn * vs))
            continue;   /* off its surface, or moving off it (an impact's separation) */
        if ((rc = drift_of(m, k, q, qd, p, row2, qs, &dr)))
            break;
        if (acc + dr < -1e-6 * (1 + rn * as))
            rc = HES__MECH_PRESSED_AT + c;
    }
    hes__mech_work_close(&w);
    return rc;
}

/* The reset map; with check, also the event's consistency at x (a release
 * that slips, a target whose held forces pull, a released contact pressed
 * back). */
static int reset_map(const hes_mech_transition *tr, double t, const double *x, const double *p,
                     double *out, int check)
{
    const hes_mech *m = tr->mech ? tr->mech : tr->from->mech;
    int d = m->d, k = tr->to->k, rc;
    (void)t;
    /* a constraint held after the event must have been enforced by it (when
     * the coordinates stay the same; a to_chart may relabel contacts) */
    if ((tr->kind == HES_MECH_ACTIVATE || tr->kind == HES_MECH_STICK) && tr->to->mech == m &&
        !tr->to_chart)
        for (int i = 0; i < tr->to->n_active; i++) {
            int found = 0;
            for (int j = 0; j < tr->n_after; j++)
                found |= tr->after[j] == tr->to->active[i];
            if (!found)
                return E_AFTER;
        }
    if (!tr->to_chart && k != d)
        return E_DIM;
    if (check && (rc = release_slip(tr, t, x, p)))
        return rc;
    size_t D = (size_t)d, NQ = (size_t)hes_mech_nq(m);
    double small[4 * S + S * S];
    hes__mech_work w;
    if (OPEN(&w, small, NQ + 2 * D + (tr->to_chart ? (size_t)k * D : 0)))
        return E_NOMEM;
    double *q = TAKE(&w, NQ), *qdm = TAKE(&w, D), *qdp = TAKE(&w, D);
    if ((rc = impact(tr, x, p, q, qdm, qdp, NULL))) {
    } else if (!tr->to_chart) {
        memcpy(out, q, sizeof(double) * NQ);
        memcpy(out + NQ, qdp, sizeof(double) * D);
    } else {
        double *J = TAKE(&w, (size_t)k * D);
        rc = eval_with_jac(tr->to_chart, tr->to_chart_dq, q, d, k, p, m->data, out, J);
        if (!rc)
            hes__matmul(k, d, 1, J, qdp, out + k);
    }
    hes__mech_work_close(&w);
    if (!rc && check)   /* the target's held constraints bear their forces right after */
        rc = held_forces_ok(tr->to, t, out, p);
    return rc || !check ? rc : leaving_accelerations(tr, t, out, p);
}

int hes_mech_reset(double t, const double *x, const double *p, double *out, void *data)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    return reset_map(data, t, x, p, out, 1);
}

/* The reset's derivatives by central differences (base/fd.c) of the map
 * without its consistency checks: those are the event's, at its state.
 * Near a lift-off the released contact's acceleration is zero at the
 * event, and the differences' states fall on either side of it. */
typedef struct {
    const hes_mech_transition *tr;
    const double *p;
} reset_ctx;

static int reset_unchecked(void *ctx, double t, const double *x, double *out)
{
    const reset_ctx *c = ctx;
    return reset_map(c->tr, t, x, c->p, out, 0);
}

static int reset_differences(double t, const double *x, const double *p, double *out,
                             void *data, int along_t)
{
    if (!data || !x || !out)
        return E_CALLBACK;
    const hes_mech_transition *tr = data;
    int n_in = hes__mech_kq(tr->from) + tr->from->k, n_out = hes__mech_kq(tr->to) + tr->to->k;
    double *work = malloc(sizeof(double) * (2 * (size_t)n_out + (size_t)n_in));
    if (!work)
        return E_NOMEM;
    reset_ctx c = { tr, p };
    int rc = along_t ? hes__fd_dt(reset_unchecked, &c, t, x, n_in, n_out, out, work)
                     : hes__fd_dx(reset_unchecked, &c, t, x, n_in, n_out, out, work);
    free(work);
    return rc;
}

int hes_mech_reset_dx(double t, const double *x, const double *p, double *out, void *data)
{
    return reset_differences(t, x, p, out, data, 0);
}

int hes_mech_reset_dt(double t, const double *x, const double *p, double *out, void *data)
{
    return reset_differences(t, x, p, out, data, 1);
}

int hes__mech_coupling(const hes_transition *a, const hes_transition *b, const double *x,
                       const double *p, double *cosine)
{
    if (a->guard != hes_mech_guard || b->guard != hes_mech_guard)
        return 1;
    const hes_mech_transition *ta = a->data, *tb = b->data;
    if (!ta || !tb || ta->kind != HES_MECH_ACTIVATE || tb->kind != HES_MECH_ACTIVATE ||
        (ta->mech ? ta->mech : ta->from->mech) != (tb->mech ? tb->mech : tb->from->mech))
        return 1;
    const hes_mech *m = ta->mech ? ta->mech : ta->from->mech;
    int d = m->d, idx[2] = { ta->constraint, tb->constraint };
    size_t D_ = (size_t)d;
    double small[7 * S + S * S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)hes_mech_nq(m) + 5 * D_ + D_ * D_))
        return 1;
    double *q = TAKE(&w, (size_t)hes_mech_nq(m)), *qd = TAKE(&w, D_), *D = TAKE(&w, 2 * D_),
           *W = TAKE(&w, 2 * D_), *M = TAKE(&w, D_ * D_);
    int rc = event_state(ta, x, p, q, qd, &m) || hes__mech_rows(m, q, p, 2, idx, D) ||
             m->mass(q, p, M, m->data) || hes__mech_chol(M, d);
    if (!rc) {
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < d; i++)
                W[i + (size_t)j * d] = D[j + (size_t)i * 2];
        hes__mech_chol_solve(M, d, W, 2);
        double g[4];
        hes__matmul(2, d, 2, D, W, g); /* Da M^-1 Da^T */
        *cosine = g[2] / sqrt(g[0] * g[3]);
    }
    hes__mech_work_close(&w);
    return rc;
}

/* hes_mech_contacts with its arguments checked, row: d doubles of work. */
static hes_status contacts_of(const hes_mech *m, const double *q, const double *p, int k,
                              const int *idx, double *M, double *Jn, double *Jt, double *mu,
                              double *row, char *msg, size_t len)
{
    int d = m->d;
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
        if (c->Jt && c->Jt(q, p, row, hes_mech_constraint_data(m, c)))
            return hes__say(msg, len, HES_EINVAL, "contacts: the tangent row of %s failed",
                            c->name);
        for (int j = 0; j < d; j++)
            Jt[r + (size_t)j * k] = c->Jt ? row[j] : 0;
    }
    if (m->mass(q, p, M, m->data))
        return hes__say(msg, len, HES_EINVAL, "contacts: the mass matrix of %s failed",
                        m->name ? m->name : "the system");
    int rc = hes__mech_rows(m, q, p, k, idx, Jn);
    if (rc)
        return rc == E_NOMEM ? hes__say(msg, len, HES_ENOMEM, "contacts: out of memory")
                             : hes__say(msg, len, HES_EINVAL, "contacts: a constraint "
                                        "function failed");
    return HES_OK;
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
    if (d < 1)
        return hes__say(msg, len, HES_EINVAL, "contacts: a system of %d coordinates", d);
    double small[S];
    hes__mech_work w;
    if (OPEN(&w, small, (size_t)d))
        return hes__say(msg, len, HES_ENOMEM, "contacts: out of memory for %d coordinates", d);
    hes_status st = contacts_of(m, q, p, k, idx, M, Jn, Jt, mu, TAKE(&w, (size_t)d), msg, len);
    hes__mech_work_close(&w);
    return st;
}
