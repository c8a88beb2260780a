/*
 * colloc_psi.c - the multipliers of the collocated orbit and the gradient of
 * psi (or the smooth measure) in the decision variables, from the
 * discretisation itself rather than a re-simulation.
 *
 * A Hermite-Simpson step is the implicit map d(X_k, X_k+1) = 0
 * (colloc_defects.c), so its variational matrix is, by the implicit
 * function theorem,
 *
 *   G_k = dX_k+1/dX_k = -(dd/dX_k+1)^-1 dd/dX_k.
 *
 * The factors of the monodromy are these step matrices, the saltation
 * matrix at every phase end (paper eq. 2; clock-local,
 *   DxR - (DxR F_I + DtR) Dxg / (Dtg + Dxg F_I),
 * with inputs or virtual events, whose next phase runs on its own clock;
 * the identity reset of a virtual event), and for the last (section) event
 * the section matrix S, so that M = S G_L ... G_1 is the return-map
 * Jacobian P (lib/hybrid/monodromy.c), whose nontrivial eigenvalues are the
 * multipliers (lib/hybrid/stability.c).
 *
 * The gradient is by eigenvalue perturbation over the factors (paper eq.
 * 5-6, lib/shaping/eigsens.c): for a simple multiplier lambda with left and
 * right eigenvectors w, v,
 *
 *   d|lambda|/dz = Re(conj(lambda) sum_f a_f (dG_f/dz) b_f / (w^H v)) / |lambda|,
 *
 * b_f the product of the factors before f applied to v, a_f w^H times those
 * after.  That is a linear functional of dG_f, sum_j p_j^T dG_f r_j over
 * one or two rank-one pairs per multiplier (hes__eig_sens_rank1).  In the
 * variables factor f depends on (its nodes, the durations on its clock,
 * the parameters, its inputs; the earlier durations on its clock share one
 * derivative, in its start time): for an event factor, central differences
 * of the factor; for a Hermite-Simpson step G = -D1^-1 D0, central
 * differences of its blocks D0, D1 through dG = -D1^-1 (dD0 + dD1 G), in its
 * nodes' states along the pairs' directions (step_gradient: 2 evaluations
 * of the blocks per pair instead of 2 per state, no factorisation; psi and
 * its gradient on the knee biped's virtual-event program 13 psi
 * evaluations instead of 30, bench_colloc_grad).  Where a multiplier used
 * is repeated or defective (hes__eig_repeated), central differences of the measure in every
 * variable instead (*fallback = 1).  Every evaluation runs in the
 * workspaces of the hes_colloc: none allocates.  With a team
 * (hes_colloc_options.jobs, colloc_team.c) the factors' derivatives are
 * dealt out to its threads, each with its own workspace and system; each
 * factor's terms are kept apart and summed in factor order, so the
 * gradient is the same bit for bit on any number of threads.
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include <lapacke.h>

#include "shaping/colloc_internal.h"

/* The state blocks D0 = dd/dX_k, D1 = dd/dX_k+1 of the Hermite-Simpson
 * defect of interval k of phase i at z (colloc_defects.c), from the field's
 * Jacobians at the nodes and the midpoint (scratch: ws->work). */
static hes_status step_blocks(const hes_colloc *c, hes__colloc_ws *ws, const double *z, int i,
                              int k, double *D0, double *D1)
{
    hes_system *sys = ws->sys;
    int n = c->dim[i], md = c->mode[i], N = c->nn[i], nm = sys->nmax;
    double T = z[c->toff[i]], h = T / (N - 1), t0 = hes__colloc_phase_t0(c, z, i);
    const double *xk = z + c->xoff[i] + (size_t)k * n, *xk1 = xk + n;
    double *w = ws->work, *fk = w, *fk1 = fk + nm, *xm = fk1 + nm, *Jk = xm + nm,
           *Jk1 = Jk + (size_t)nm * nm, *Jm = Jk1 + (size_t)nm * nm, *Mx = Jm + (size_t)nm * nm,
           *E = Mx + (size_t)nm * nm;
    hes_status st;
    assert(k >= 0 && k + 1 < N && n <= nm);
    assert((size_t)(E + (size_t)nm * nm - ws->work) <= c->work_len);
    hes__colloc_put_params_sys(c, sys, z);
    hes__colloc_set_inputs_sys(c, sys, z, i, k, 0);
    if ((st = hes__colloc_field_ws(ws, md, t0 + k * h, xk, fk, Jk)) != HES_OK)
        return st;
    hes__colloc_set_inputs_sys(c, sys, z, i, k + 1, 0);
    if ((st = hes__colloc_field_ws(ws, md, t0 + (k + 1) * h, xk1, fk1, Jk1)) != HES_OK)
        return st;
    for (int r = 0; r < n; r++)
        xm[r] = 0.5 * (xk[r] + xk1[r]) + h / 8 * (fk[r] - fk1[r]);
    hes__colloc_set_inputs_sys(c, sys, z, i, k, 1);
    if ((st = hes__colloc_field_ws(ws, md, t0 + (k + 0.5) * h, xm, NULL, Jm)) != HES_OK)
        return st;
    hes__colloc_defect_blocks(n, h, Jk, Jk1, Jm, Mx, E, D0, D1);
    return HES_OK;
}

/*
 * The variational matrix of one Hermite-Simpson step, consistent with the
 * discretisation: the step is the implicit map d(X_k, X_k+1) = 0, so
 *   G = dX_k+1/dX_k = -D1^-1 D0   (implicit function theorem).
 * With lu and piv given, D1's LU factorisation is left there (the
 * gradient's solves with D1^T, step_gradient).
 */
static hes_status step_matrix(const hes_colloc *c, hes__colloc_ws *ws, const double *z, int i,
                              int k, double *G, double *lu, int *piv)
{
    int n = c->dim[i], nm = ws->sys->nmax;
    double *D0 = ws->work + 6 * (size_t)nm + 5 * (size_t)nm * nm;
    double *D1 = lu ? lu : D0 + (size_t)nm * nm;
    int *ipiv = piv ? piv : (int *)(D0 + 2 * (size_t)nm * nm);
    hes_status st;
    assert((size_t)(D0 + 3 * (size_t)nm * nm - ws->work) <= c->work_len);
    if ((st = step_blocks(c, ws, z, i, k, D0, D1)) != HES_OK)
        return st;
    for (int q = 0; q < n * n; q++)
        G[q] = -D0[q];
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, D1, n, ipiv) != 0 ||
        LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, n, D1, n, ipiv, G, n) != 0)
        return hes__fail(ws->sys, HES_ESOLVER,
                         "singular Hermite-Simpson step (phase %d, interval %d)", i, k);
    return HES_OK;
}

/* The clock-local saltation matrix at the end of phase i (inputs or
 * virtual events: the next phase's inputs start on their own clock, so the
 * event-time shift is not carried into the next phase):
 *   DxR - (DxR F_I + DtR) Dxg / (Dtg + Dxg F_I), identity reset if virtual. */
static hes_status clock_saltation(const hes_colloc *c, hes__colloc_ws *ws, const double *z, int i,
                                  double *G)
{
    hes_system *sys = ws->sys;
    int n = c->dim[i], nj = c->dim[(i + 1) % c->n_phases], tr = c->tr[i], N = c->nn[i];
    double te = hes__colloc_phase_t0(c, z, i) + z[c->toff[i]];
    const double *xe = z + c->xoff[i] + (size_t)(N - 1) * n;
    double *F = ws->ework, *gx = F + n, *DtR = gx + n, *DR = DtR + nj, den, scale;
    assert(2 * (size_t)n + nj + (size_t)nj * n <= c->ework_len);
    hes_status st;
    hes__colloc_set_inputs_sys(c, sys, z, i, N - 1, 0);
    /* a virtual event's guard is the physical one plus a constant offset:
     * the same derivatives */
    if ((st = hes__guard_rate(sys, tr, te, xe, F, gx, &den, &scale)) != HES_OK)
        return st;
    if (hes__grazing(sys, den, scale))
        return hes__fail(sys, HES_EGRAZING, "the event ending phase %d is reached tangentially "
                         "(|Dtg + Dxg F| = %.3g): saltation matrix undefined", i, fabs(den));
    if (c->virt[i]) {
        memset(DR, 0, sizeof(double) * (size_t)nj * n);
        memset(DtR, 0, sizeof(double) * (size_t)nj);
        for (int r = 0; r < n; r++)
            DR[r + (size_t)r * nj] = 1.0;
    } else if ((st = hes__reset_dx(sys, tr, te, xe, DR)) != HES_OK ||
               (st = hes__reset_dt(sys, tr, te, xe, DtR)) != HES_OK) {
        return st;
    }
    hes__saltation_formula(n, nj, DR, DtR, F, gx, den, NULL, G);
    return HES_OK;
}

/* The factor list (hes__colloc_factor): intervals of phase 0, its event,
 * intervals of phase 1, ...; returns their number. */
static int factor_list(const hes_colloc *c, hes__colloc_factor *f)
{
    int nf = 0, P = c->n_phases;
    for (int i = 0; i < P; i++) {
        for (int k = 0; k + 1 < c->nn[i]; k++)
            f[nf++] = (hes__colloc_factor){ i, k, c->dim[i], c->dim[i] };
        f[nf++] = (hes__colloc_factor){ i, -1, c->dim[(i + 1) % P], c->dim[i] };
    }
    assert(nf == c->nfac);
    return nf;
}

/* Factor f at z into G (rows x cols), the section's normal into normal
 * for the last; a step's LU of D1 into lu, piv where given. */
static hes_status factor_eval(const hes_colloc *c, hes__colloc_ws *ws, const double *z,
                              const hes__colloc_factor *f, double *G, double *normal, double *lu,
                              int *piv)
{
    hes_system *sys = ws->sys;
    if (f->interval >= 0) /* step_blocks puts z's parameters */
        return step_matrix(c, ws, z, f->phase, f->interval, G, lu, piv);
    hes__colloc_put_params_sys(c, sys, z);
    int i = f->phase, n = c->dim[i];
    double te = hes__colloc_phase_t0(c, z, i) + z[c->toff[i]];
    const double *xe = z + c->xoff[i] + (size_t)(c->nn[i] - 1) * n;
    hes__colloc_set_inputs_sys(c, sys, z, i, c->nn[i] - 1, 0);
    if (i == c->n_phases - 1)
        return hes__section_matrix(sys, c->tr[i], te, xe, G, normal);
    if (c->phase_clock)
        return clock_saltation(c, ws, z, i, G);
    return hes_saltation(sys, c->tr[i], te, xe, G);
}

/* Where factor_vars lists the durations on the factor's clock: after the
 * states of its nodes, the earlier (sub-)phases' first and its own last. */
static int factor_time_first(const hes_colloc *c, const hes__colloc_factor *f)
{
    return (f->interval >= 0 ? 2 : 1) * c->dim[f->phase];
}

/* Decision variables a factor depends on (states of its nodes, durations
 * on its clock, parameters, inputs); returns their number. */
static int factor_vars(const hes_colloc *c, const hes__colloc_factor *f, int *v)
{
    int nv = 0, i = f->phase, n = c->dim[i];
    int first = f->interval >= 0 ? f->interval : c->nn[i] - 1, count = f->interval >= 0 ? 2 : 1;
    for (int q = 0; q < count * n; q++)
        v[nv++] = c->xoff[i] + first * n + q;
    assert(nv == factor_time_first(c, f));
    for (int j = c->clock_start[i]; j <= i; j++)
        v[nv++] = c->toff[j];
    for (int q = 0; q < c->n_fp; q++)
        v[nv++] = c->poff + q;
    if (c->urows[i] == 1)
        count = 1, first = 0;
    for (int q = 0; q < count * c->n_in; q++)
        v[nv++] = c->uoff[i] + first * c->n_in + q;
    assert(nv <= 2 * c->sys->nmax + c->n_phases + c->n_solved + HES_COLLOC_MAX_DESIGN +
                     2 * c->n_in + 1);
    return nv;
}

/* psi with its kinks smoothed (hes_colloc_options.psi_smoothing): the
 * smoothed maximum hes__colloc_smax of all the multipliers' moduli with
 * half-width mu, its gradient in the moduli into weights.  A complex pair
 * counts twice, as the real pair it came from: where two real multipliers
 * c +- sqrt(d) merge (d -> 0) the smoothed value c + d/mu + mu/4 meets the
 * pair's |lambda| + mu/4 (counted once it would jump by mu/4 there, at the
 * SLIP's optimum).  The member with positive imaginary part carries the
 * pair's weight (the two have one modulus and one derivative), so that
 * the gradient differentiates one eigenvalue per pair; weights below
 * 1e-12 are dropped (each weight costs an eigenvalue derivative). */
static double smoothed_psi(const hes_stability *stab, double mu, double *weights)
{
    double w[HES_COLLOC_SMAX_MAX];
    int n = stab->n_mult;
    assert(n <= HES_COLLOC_SMAX_MAX);
    double v = hes__colloc_smax(stab->abs, n, mu, w);
    for (int k = 0; weights && k < n; k++)
        weights[k] = 0.0;
    for (int k = 0; weights && k < n; k++) {
        int to = k;
        if (stab->all_im[stab->order[k]] < 0) /* its partner precedes it in dgeev's order */
            for (int l = 0; l < n; l++)
                if (stab->order[l] == stab->order[k] - 1)
                    to = l;
        weights[to] += w[k] >= 1e-12 ? w[k] : 0.0;
    }
    return v;
}

/* The measure of M = G_last ... G_1 (the last factor is the section
 * matrix S: M is the return-map Jacobian), factor f taken from sub[f]
 * where sub is given and sub[f] is not NULL, else from G: the product into
 * cur (nxt: scratch), the multipliers into stab (weights: the measure's,
 * per multiplier). */
static hes_status chain_measure(const hes_colloc *c, const double *G, double *const *sub,
                                double *normal, double *cur, double *nxt,
                                hes_stability *stab, hes_measure measure, double *value,
                                double *weights)
{
    int nm = c->sys->nmax, n0 = c->dim[0], rows = n0;
    size_t mm = (size_t)nm * nm;
    memset(cur, 0, sizeof(double) * (size_t)n0 * n0);
    for (int r = 0; r < n0; r++)
        cur[r + (size_t)r * n0] = 1.0;
    for (int f = 0; f < c->nfac; f++) {
        const hes__colloc_factor *F = &c->fac[f];
        const double *Gf = sub && sub[f] ? sub[f] : G + (size_t)f * mm;
        assert(F->cols == rows && F->rows <= nm); /* the factors chain */
        hes__matmul(F->rows, rows, n0, Gf, cur, nxt);
        rows = F->rows;
        memcpy(cur, nxt, sizeof(double) * (size_t)rows * n0);
    }
    assert(rows == n0);
    hes_monodromy view;
    memset(&view, 0, sizeof view);
    view.n = n0;
    view.autonomous = 1;
    view.phi = view.proj = cur;
    view.normal = normal;
    hes_status st = hes_stability_update(&view, stab);
    if (st == HES_OK)
        *value = measure == HES_MEASURE_PSI && c->psi_mu > 0
                     ? smoothed_psi(stab, c->psi_mu, weights)
                     : hes__measure(stab->abs, stab->n_mult, measure, weights);
    return st;
}

/* The gradient's fallback where a multiplier used is repeated or
 * defective: central differences of the measure in the variables v =
 * member, member + members, ..., each difference from the factors that
 * depend on v (c->vfac) evaluated at z +- h e_v and the others as they are
 * at z (the same numbers as re-evaluating every factor). */
typedef struct {
    const double *z;
    hes_measure measure;
    double *normal;              /* of the section matrix at z */
    double *grad;
    hes_status *status;          /* per member */
    int *failed_at;              /* per member: the variable whose difference failed */
} fallback_job;

static void fallback_member(hes_colloc *c, hes__colloc_ws *w, int member, int members,
                            void *arg)
{
    const fallback_job *job = arg;
    const double *z = job->z;
    int nm = w->sys->nmax;
    size_t mm = (size_t)nm * nm;
    double *zz = w->zz, *cur = w->chain, *nxt = cur + mm, *normal = nxt + mm, weights[64];
    hes_status st = HES_OK;
    memcpy(zz, z, sizeof(double) * (size_t)c->nv);
    for (int v = member; v < c->nv && st == HES_OK; v += members) {
        const int *fs = c->vfac + c->vfac_off[v];
        int nf = c->vfac_off[v + 1] - c->vfac_off[v];
        double h = 1e-6 * fmax(1.0, fabs(z[v])), val[2] = { 0, 0 };
        volatile double zp = z[v] + h, zm = z[v] - h; /* the steps as represented */
        if (nf == 0) { /* nothing depends on v (e.g. a virtual offset) */
            job->grad[v] = 0;
            continue;
        }
        for (int side = 0; side < 2 && st == HES_OK; side++) {
            double *nrm = job->normal;
            zz[v] = side == 0 ? zp : zm;
            for (int i = 0; i < nf && st == HES_OK; i++) {
                w->sub[fs[i]] = w->gpert + (size_t)i * mm;
                st = factor_eval(c, w, zz, &c->fac[fs[i]], w->sub[fs[i]], normal, NULL, NULL);
                if (fs[i] == c->nfac - 1)
                    nrm = normal;
            }
            if (st == HES_OK)
                st = chain_measure(c, c->G, w->sub, nrm, cur, nxt, &w->stab, job->measure,
                                   &val[side], weights);
            for (int i = 0; i < nf; i++)
                w->sub[fs[i]] = NULL;
        }
        zz[v] = z[v];
        job->grad[v] = (val[0] - val[1]) / (zp - zm);
        if (st != HES_OK)
            job->failed_at[member] = v;
    }
    job->status[member] = st;
}

/* psi's gradient terms of the factors f = member, member + members, ...,
 * into c->gcon (each factor in the member's workspace).  The multipliers'
 * derivative is a linear functional of the factor's derivative dG_f, in
 * rank-one form sum_j p_j^T dG_f r_j (hes__eig_sens_rank1: one or two
 * pairs per multiplier used). */
typedef struct {
    const double *z;
    const hes__eig_sens *es;
    const int *use;
    int nuse;
    const double *weights;
    hes_status *status;          /* per member */
    int *failed_at;              /* per member: the factor whose derivative failed */
} grad_job;

/* The pairs (p_j, r_j) of factor f (stride nm), returns their number. */
static int factor_pairs(const grad_job *job, int f, int rows, int cols, int nm, double *p,
                        double *r)
{
    int nt = 0;
    for (int u = 0; u < job->nuse; u++)
        nt += hes__eig_sens_rank1(&job->es[u], f, rows, cols, job->weights[job->use[u]],
                                  p + (size_t)nt * nm, nm, r + (size_t)nt * nm, nm);
    return nt;
}

/* The durations of the earlier (sub-)phases on factor F's clock move it
 * only through its start time t0: one derivative serves them all
 * (factor_vars lists them after the states, the first of them computed
 * first).  For those q, copies it into con[q] and returns 1. */
static int shared_duration(const hes_colloc *c, const hes__colloc_factor *F, const int *vars,
                           int q, double *con)
{
    int i = F->phase, t_first = factor_time_first(c, F), t_end = t_first + i - c->clock_start[i];
    if (q <= t_first || q >= t_end)
        return 0;
    assert(vars[q] == c->toff[c->clock_start[i] + q - t_first]);
    (void)vars;
    con[q] = con[t_first];
    return 1;
}

/*
 * The terms of a Hermite-Simpson step G = -D1^-1 D0 (step_matrix) without
 * differentiating G itself: dG = -D1^-1 (dD0 + dD1 G), so with
 * pt_j = D1^-T p_j and g_j = G r_j
 *
 *   sum_j p_j^T dG r_j = -sum_j pt_j^T (dD0 r_j + dD1 g_j).
 *
 * In a duration, a parameter or an input v: central differences of D0 and
 * D1 in v (no factorisation).  In the states of the step's nodes, where
 * the pairs are fewer than the states: D0 r + D1 g is the derivative of the
 * defect d along the direction w = (r, g) of (X_k, X_k+1), so by the
 * symmetry of second derivatives the whole row over (X_k, X_k+1) is
 *
 *   d/de [pt^T (D0, D1)](z + e w)   (one central difference per pair),
 *
 * two evaluations of the blocks per pair instead of two per state.
 */
static hes_status step_gradient(hes_colloc *c, hes__colloc_ws *w, const grad_job *job, int f,
                                double *con)
{
    const double *z = job->z;
    const hes__colloc_factor *F = &c->fac[f];
    const int *vars = c->gvars + c->goff[f];
    int nm = w->sys->nmax, n = F->rows, i = F->phase, k = F->interval, nv = c->gnvar[f];
    size_t mm = (size_t)nm * nm;
    double *zz = w->zz, *D0p = w->dG, *D1p = D0p + mm, *D0m = D1p + mm, *D1m = D0m + mm,
           *p = D1m + mm, *r = p + 2 * mm, *g = r + 2 * mm, *tmp = g + 2 * mm;
    const double *G = c->G + (size_t)f * mm;
    hes_status st;
    int nt = factor_pairs(job, f, n, n, nm, p, r);
    assert(nt <= 2 * nm);
    /* pt_j = D1^-T p_j (in place of p) from the LU that step_matrix kept
     * (it refused a singular D1), g_j = G r_j */
    int info = LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'T', n, nt, c->Dlu + (size_t)f * mm, n,
                              c->Dpiv + (size_t)f * nm, p, nm);
    assert(info == 0);
    (void)info;
    for (int j = 0; j < nt; j++)
        hes__matmul(n, n, 1, G, r + (size_t)j * nm, g + (size_t)j * nm);
    /* the states by directions where the pairs are fewer (2 evaluations of
     * the blocks per pair, 3 field Jacobians each; state by state 2 per
     * state, 2 Jacobians each, the memo keeping the other node's), unless a
     * test asks for one way (hes__colloc_set_step_states) */
    int along = c->step_states ? c->step_states == 1 : nt < n;
    for (int q = along ? 2 * n : 0; q < nv; q++) {
        int v = vars[q];
        assert(v >= 0 && v < c->nv);
        if (shared_duration(c, F, vars, q, con))
            continue;
        double h = hes__fd_step(z[v]);
        zz[v] = z[v] + h;
        st = step_blocks(c, w, zz, i, k, D0p, D1p);
        zz[v] = z[v] - h;
        if (st == HES_OK)
            st = step_blocks(c, w, zz, i, k, D0m, D1m);
        zz[v] = z[v];
        if (st != HES_OK)
            return st;
        double sum = 0;
        for (int j = 0; j < nt; j++) {
            const double *pt = p + (size_t)j * nm, *rj = r + (size_t)j * nm;
            const double *gj = g + (size_t)j * nm;
            for (int b = 0; b < n; b++)
                for (int a = 0; a < n; a++)
                    sum += pt[a] * ((D0p[a + (size_t)b * n] - D0m[a + (size_t)b * n]) * rj[b] +
                                    (D1p[a + (size_t)b * n] - D1m[a + (size_t)b * n]) * gj[b]);
        }
        con[q] = -sum / (2 * h);
    }
    if (!along)
        return HES_OK;
    double *xs = zz + c->xoff[i] + (size_t)k * n;
    const double *x = z + c->xoff[i] + (size_t)k * n;
    for (int q = 0; q < 2 * n; q++)
        con[q] = 0;
    for (int j = 0; j < nt; j++) {
        const double *pt = p + (size_t)j * nm, *rj = r + (size_t)j * nm;
        const double *gj = g + (size_t)j * nm;
        double xmax = 0, wmax = 0;
        for (int a = 0; a < n; a++) {
            xmax = fmax(xmax, fmax(fabs(x[a]), fabs(x[n + a])));
            wmax = fmax(wmax, fmax(fabs(rj[a]), fabs(gj[a])));
        }
        if (wmax == 0)
            continue;
        double e = hes__fd_step(xmax) / wmax;
        for (int side = 0; side < 2; side++) {
            double s = side ? -e : e;
            for (int a = 0; a < n; a++) {
                xs[a] = x[a] + s * rj[a];
                xs[n + a] = x[n + a] + s * gj[a];
            }
            st = step_blocks(c, w, zz, i, k, side ? D0m : D0p, side ? D1m : D1p);
            if (st != HES_OK)
                break;
        }
        memcpy(xs, x, sizeof(double) * 2 * (size_t)n);
        if (st != HES_OK)
            return st;
        for (int b = 0; b < n; b++) {
            double s0 = 0, s1 = 0;
            for (int a = 0; a < n; a++) {
                s0 += pt[a] * (D0p[a + (size_t)b * n] - D0m[a + (size_t)b * n]);
                s1 += pt[a] * (D1p[a + (size_t)b * n] - D1m[a + (size_t)b * n]);
            }
            tmp[b] = s0;
            tmp[n + b] = s1;
        }
        for (int q = 0; q < 2 * n; q++)
            con[q] -= tmp[q] / (2 * e);
    }
    return HES_OK;
}

/* The terms of an event factor (a saltation or the section matrix):
 * central differences of the factor in every variable it depends on. */
static hes_status event_gradient(hes_colloc *c, hes__colloc_ws *w, const grad_job *job, int f,
                                 double *con)
{
    const double *z = job->z;
    const hes__colloc_factor *F = &c->fac[f];
    const int *vars = c->gvars + c->goff[f];
    int nm = w->sys->nmax, R = F->rows, C = F->cols;
    size_t mm = (size_t)nm * nm;
    double *zz = w->zz, *Gp = w->dG, *Gm = Gp + mm, *x = Gm + mm, *p = x + nm, *r = p + 2 * mm;
    hes_status st;
    int nt = factor_pairs(job, f, R, C, nm, p, r);
    for (int q = 0; q < c->gnvar[f]; q++) {
        int v = vars[q];
        assert(v >= 0 && v < c->nv);
        if (shared_duration(c, F, vars, q, con))
            continue;
        double h = hes__fd_step(z[v]);
        zz[v] = z[v] + h;
        st = factor_eval(c, w, zz, F, Gp, x, NULL, NULL);
        zz[v] = z[v] - h;
        if (st == HES_OK)
            st = factor_eval(c, w, zz, F, Gm, x, NULL, NULL);
        zz[v] = z[v];
        if (st != HES_OK)
            return st;
        double sum = 0;
        for (int j = 0; j < nt; j++) {
            const double *pj = p + (size_t)j * nm, *rj = r + (size_t)j * nm;
            for (int b = 0; b < C; b++)
                for (int a = 0; a < R; a++)
                    sum += pj[a] * (Gp[a + (size_t)b * R] - Gm[a + (size_t)b * R]) * rj[b];
        }
        con[q] = sum / (2 * h);
    }
    return HES_OK;
}

static void grad_member(hes_colloc *c, hes__colloc_ws *w, int member, int members, void *arg)
{
    const grad_job *job = arg;
    hes_status st = HES_OK;
    memcpy(w->zz, job->z, sizeof(double) * (size_t)c->nv);
    for (int f = member; f < c->nfac && st == HES_OK; f += members) {
        double *con = c->gcon + c->goff[f];
        st = c->fac[f].interval >= 0 ? step_gradient(c, w, job, f, con)
                                     : event_gradient(c, w, job, f, con);
        if (st != HES_OK)
            job->failed_at[member] = f;
    }
    job->status[member] = st;
}

/* The team's outcome: the failure at the smallest index (factor or
 * variable) among the members', as the serial loop would meet it first,
 * with its member's message on the hes_colloc's system. */
static hes_status team_status(hes_colloc *c, int members, const hes_status *status,
                              const int *failed_at)
{
    int worst = -1;
    for (int m = 0; m < members; m++)
        if (status[m] != HES_OK && (worst < 0 || failed_at[m] < failed_at[worst]))
            worst = m;
    if (worst < 0)
        return HES_OK;
    if (worst == 0)
        return status[0];
    return hes__fail(c->sys, status[worst], "%s",
                     hes_system_errmsg(hes__colloc_team_sys(c, worst)));
}

void hes__colloc_set_step_states(hes_colloc *c, int how)
{
    c->step_states = how;
}

static hes_status colloc_measure(hes_colloc *c, const double *z, hes_measure measure,
                                 double *value, double *grad, int *fallback)
{
    hes_system *sys = c->sys;
    int nm = sys->nmax, n0 = c->dim[0];
    size_t mm = (size_t)nm * nm;
    hes__colloc_factor *F = c->fac;
    double *G = c->G, *cur = c->chain, weights[64];
    hes_stability *stab = &c->stab;
    hes_status st = HES_OK;
    if (fallback)
        *fallback = 0;
    hes__colloc_memo_clear(&c->ws);
    if (n0 > 64)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *nxt = cur + mm, *normal = nxt + mm;
    int nfac = factor_list(c, F);
    for (int f = 0; f < nfac && st == HES_OK; f++)
        st = factor_eval(c, &c->ws, z, &F[f], G + (size_t)f * mm, normal,
                         grad ? c->Dlu + (size_t)f * mm : NULL,
                         grad ? c->Dpiv + (size_t)f * nm : NULL);
    if (st != HES_OK)
        return st;
    if ((st = chain_measure(c, G, NULL, normal, cur, nxt, stab, measure, value, weights)) !=
        HES_OK)
        return hes__fail(sys, st, "multipliers of the collocated orbit");
    if (c->ret_map)
        memcpy(c->ret_map, cur, sizeof(double) * (size_t)n0 * n0);
    if (measure == HES_MEASURE_PSI && c->psi_mu > 0) { /* more than one eigenvalue (a pair
                                                           once) weighs */
        int weighing = 0;
        for (int k = 0; k < stab->n_mult; k++)
            weighing += weights[k] > 0;
        c->psi_band = weighing > 1;
    }
    if (!grad)
        return HES_OK;
    memset(grad, 0, sizeof(double) * (size_t)c->nv);
    /* the multipliers the derivative needs, each simple and well separated */
    int use[64], nuse = 0, repeated = 0;
    double buf[4 * 64];
    for (int k = 0; k < stab->n_mult; k++) {
        if (weights[k] == 0.0)
            continue;
        repeated |= hes__eig_repeated(stab, stab->order[k], buf);
        use[nuse++] = k;
    }
    assert(c->nv <= c->nv_max);
    /* the variables of every factor, and the factors of every variable */
    for (int f = 0, off = 0; f < nfac; f++) {
        c->goff[f] = off;
        c->gnvar[f] = factor_vars(c, &F[f], c->gvars + off);
        off += c->gnvar[f];
    }
    hes_status status[HES_COLLOC_MAX_JOBS];
    int failed_at[HES_COLLOC_MAX_JOBS], members = hes__colloc_team_size(c);
    assert(members <= HES_COLLOC_MAX_JOBS);
    if (repeated) { /* central differences of the measure in every variable */
        if (fallback)
            *fallback = 1;
        memset(c->vfac_off, 0, sizeof(int) * ((size_t)c->nv + 1));
        for (int e = 0; e < c->goff[nfac - 1] + c->gnvar[nfac - 1]; e++)
            c->vfac_off[c->gvars[e] + 1]++;
        for (int v = 0; v < c->nv; v++)
            c->vfac_off[v + 1] += c->vfac_off[v];
        for (int f = 0; f < nfac; f++) /* each list in factor order; the offsets */
            for (int q = 0; q < c->gnvar[f]; q++) /* move to the lists' ends */
                c->vfac[c->vfac_off[c->gvars[c->goff[f] + q]]++] = f;
        for (int v = c->nv; v > 0; v--)
            c->vfac_off[v] = c->vfac_off[v - 1];
        c->vfac_off[0] = 0;
        fallback_job job = { z, measure, normal, grad, status, failed_at };
        hes__colloc_team_run(c, fallback_member, &job);
        st = team_status(c, members, status, failed_at);
        hes__colloc_put_params(c, z);
        return st;
    }
    /* eigenvalue perturbation for each multiplier used (eigsens.c): the
     * sweeps once per multiplier, then for every factor and every variable
     * it depends on, d|lambda| from a_f dG_f b_f; the factors dealt out to
     * the team's members, each factor's terms summed in one order */
    size_t blk = (size_t)nfac * nm;
    hes__eig_sens es[64];
    double *B = c->sens;
    assert(nuse <= (n0 > 1 ? n0 : 1));
    for (int f = 0; f < nfac; f++)
        c->GF[f] = (hes_factor){ .rows = F[f].rows, .cols = F[f].cols, .m = G + (size_t)f * mm };
    for (int u = 0; u < nuse; u++)
        hes__eig_sens_init(&es[u], stab, stab->order[use[u]], nfac, c->GF, nm, B + 4 * blk * u);
    grad_job job = { z, es, use, nuse, weights, status, failed_at };
    hes__colloc_team_run(c, grad_member, &job);
    st = team_status(c, members, status, failed_at);
    for (int f = 0; f < nfac && st == HES_OK; f++)
        for (int q = 0; q < c->gnvar[f]; q++)
            grad[c->gvars[c->goff[f] + q]] += c->gcon[c->goff[f] + q];
    hes__colloc_put_params(c, z);
    return st;
}

hes_status hes_colloc_return_map(hes_colloc *c, const double *z, double *P)
{
    if (!c)
        return HES_EINVAL;
    if (!z || !P)
        return hes__fail(c->sys, HES_EINVAL, "collocation return map: needs z and P");
    double psi;
    c->ret_map = P;
    hes_status st = colloc_measure(c, z, HES_MEASURE_PSI, &psi, NULL, NULL);
    c->ret_map = NULL;
    return st;
}

hes_status hes_colloc_psi(hes_colloc *c, const double *z, double *psi, double *grad, int *fallback)
{
    if (!c)
        return HES_EINVAL;
    if (!z || !psi)
        return hes__fail(c->sys, HES_EINVAL, "collocation psi: needs z and psi");
    return colloc_measure(c, z, HES_MEASURE_PSI, psi, grad, fallback);
}

hes_status hes__colloc_measure(hes_colloc *c, const double *z, hes_measure measure, double *value,
                              double *grad, int *fallback)
{
    if (!c)
        return HES_EINVAL;
    if (!z || !value)
        return hes__fail(c->sys, HES_EINVAL, "collocation measure: needs z and somewhere to put it");
    if (measure != HES_MEASURE_PSI && measure != HES_MEASURE_SMOOTH)
        return hes__fail(c->sys, HES_EINVAL, "unknown stability measure %d", (int)measure);
    return colloc_measure(c, z, measure, value, grad, fallback);
}
