/*
 * shape.c - hybrid event shaping (paper Sec. III): the shape-parameter
 * property, fast re-evaluation of psi at new shape values over the stored
 * factors of a nominal orbit, and the gradient of psi and of every
 * multiplier modulus by eigenvalue perturbation (paper eq. 5-6).
 *
 * The analysed matrix is the product M = G_L ... G_1 of the factors of one
 * period: the variational matrices of the phases (fixed: shape parameters do
 * not move the orbit), the saltation matrices of the events and, for
 * autonomous orbits, the section matrix S in place of the last saltation
 * matrix (M = P, the return-map Jacobian).  Event factors are recomputed at
 * the nominal events from the model's callbacks when h changes.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/shaping.h"

/* Relative step of the fallback differences: a defective multiplier is
 * computed only to ~sqrt(eps) (a Jordan block of size 2), so the step must
 * be large enough for psi to change by much more than that. */
#define SHAPE_FALLBACK_STEP 1e-4

struct hes_shape {
    hes_system *sys;
    const hes_analysis *res;
    int n;                   /* shape parameters */
    int *pidx;
    int n0, autonomous;
    int nf;                  /* factors G_1..G_nf */
    hes_factor *G;
    int *event;              /* event index of factor k, or -1 for a phase */
    unsigned char *dep;      /* dep[k + nf j]: G_k depends on h_j */
    double *fields;          /* per factor k: F_I and F_J at its event (2 nmax), which
                                shape parameters do not move (verify_property) */
    int *dep_first, *dep_k; /* the factors h_j moves: dep_k[dep_first[j] ..
                                dep_first[j + 1] - 1] (from dep) */
    unsigned char *moves;    /* per factor: some h_j moves it */
    int plen;                /* room for one factor's saltation pieces */
    double *pieces;          /* per factor k: its pieces (Dxg, Dtg, DxR, DtR) at h */
    double **slope;          /* slope[k + nf j]: d pieces / dh_j where the pieces are
                                affine in h (find_slopes), else NULL */
    double **dG;             /* dG[k + nf j]: dG_k/dh_j, for dependent pairs */
    double *M, *normal, *tmp;
    hes_stability st;          /* storage for n0 x n0, filled by refresh */
    /* gradient workspaces */
    double *dpsi, *dabs;
    double *sens;              /* 4 nf nmax: the sweeps of hes__eig_sens */
    double *h;
    /* evaluation workspaces, so that hes_shape_eval does not allocate */
    double *fd;                /* 2 nmax^2: the two sides of a difference */
    double *eigbuf;            /* 4 n0: hes__eig_repeated */
};

int hes_shape_count(const hes_shape *sh) { return sh ? sh->n : 0; }
int hes_shape_param(const hes_shape *sh, int j)
{
    return sh && j >= 0 && j < sh->n ? sh->pidx[j] : -1;
}

void hes_shape_destroy(hes_shape *sh)
{
    if (!sh)
        return;
    for (int k = 0; sh->G && k < sh->nf; k++)
        free(sh->G[k].m);
    for (int i = 0; sh->dG && i < sh->nf * sh->n; i++)
        free(sh->dG[i]);
    free(sh->G);
    free(sh->dG);
    free(sh->event);
    free(sh->dep);
    free(sh->fields);
    free(sh->dep_first);
    free(sh->dep_k);
    free(sh->moves);
    free(sh->pieces);
    for (int i = 0; sh->slope && i < sh->nf * sh->n; i++)
        free(sh->slope[i]);
    free(sh->slope);
    free(sh->pidx);
    free(sh->M);
    free(sh->normal);
    free(sh->tmp);
    free(sh->dpsi);
    free(sh->dabs);
    free(sh->sens);
    free(sh->h);
    free(sh->fd);
    free(sh->eigbuf);
    hes_stability_free(&sh->st);
    free(sh);
}

/* Recomputes event factor k at the current parameters: the section
 * matrix, or the saltation matrix from the guard's and reset's derivatives
 * (its pieces, kept in sh->pieces when store != 0) with the event's vector
 * fields kept (sh->fields). */
/* The pieces of factor k at the current parameters into P. */
static hes_status pieces_at(hes_shape *sh, int k, double *P)
{
    const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
    return hes__saltation_pieces(sh->sys, ev->transition, ev->tm, ev->x_minus, P);
}

static hes_status event_factor(hes_shape *sh, int k, double *out, double *normal, int store)
{
    const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
    if (sh->autonomous && k == sh->nf - 1)
        return hes__section_matrix(sh->sys, ev->transition, ev->tm, ev->x_minus, out, normal);
    const double *F = sh->fields + (size_t)2 * sh->sys->nmax * k;
    /* scratch: sh->fd past the nmax^2 values a caller's out may use */
    double *P = store ? sh->pieces + (size_t)sh->plen * k
                      : sh->fd + (size_t)sh->sys->nmax * sh->sys->nmax;
    hes_status st = pieces_at(sh, k, P);
    return st != HES_OK ? st : hes__saltation_of_pieces(sh->sys, ev->transition, ev->tm, P, F,
                                                         F + sh->sys->nmax, out);
}

/* F_I at x_minus and F_J at the reset's image of every event factor. */
static hes_status event_fields(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    int nm = sys->nmax;
    hes_status st = HES_OK;
    for (int k = 0; k < sh->nf && st == HES_OK; k++) {
        if (sh->event[k] < 0)
            continue;
        const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
        const hes_transition *T = &m->transitions[ev->transition];
        double *F = sh->fields + (size_t)2 * nm * k, *R = sh->fd;
        if ((st = hes__field(sys, T->from, ev->tm, ev->x_minus, F)) == HES_OK &&
            (st = hes__reset(sys, ev->transition, ev->tm, ev->x_minus, R)) == HES_OK)
            st = hes__field(sys, T->to, hes__time_after(m, ev->transition, ev->tm), R, F + nm);
    }
    return st;
}

static double max_abs_diff(const double *a, const double *b, int n, double *scale)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    *scale = s;
    return d;
}

/* The larger probe step used for the property and dependency checks
 * (differences themselves use hes__fd_step). */
static double probe_step_h(double h) { return 1e-2 * fmax(1.0, fabs(h)); }

/* A parameter the orbit solver solves for, or one that sets the components
 * of the section state the solver keeps fixed, defines the orbit itself. */
static hes_status verify_orbit_definition(hes_shape *sh, int j)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    const hes_orbit_spec *o = &m->orbit;
    int pi = sh->pidx[j], n0 = sh->n0;
    if (m->params[pi].flags & HES_PARAM_SOLVED)
        return hes__fail(sys, HES_EINVAL, "'%s' is not a shape parameter: it is solved for by "
                         "the orbit solver", m->params[pi].name);
    double *a = malloc(sizeof(double) * (2 * (size_t)n0 + (size_t)m->n_params)), scale;
    if (!a)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *x0 = a, *x1 = a + n0, *p = x1 + n0, h = sys->p[pi];
    hes_status st = HES_OK;
    for (int side = 0; side < 3 && st == HES_OK; side++) {
        memcpy(p, sys->p, sizeof(double) * (size_t)m->n_params);
        p[pi] = side == 0 ? h : side == 1 ? h + probe_step_h(h) : h - probe_step_h(h);
        if (o->guess(p, side ? x1 : x0, m->data) != 0) {
            st = hes__fail(sys, HES_EMODEL, "the orbit's initial guess failed");
            break;
        }
        for (int i = 0; side && i < n0; i++) {
            int is_free = 0;
            for (int f = 0; f < o->n_free_states; f++)
                is_free |= o->free_states[f] == i;
            if (!is_free && !(fabs(x1[i] - x0[i]) <= 1e-9 * (1.0 + fabs(x0[i])))) {
                (void)scale;
                st = hes__fail(sys, HES_EINVAL, "'%s' is not a shape parameter: it sets the "
                               "section state of the orbit (component %d moves by %.3g)",
                               m->params[pi].name, i, fabs(x1[i] - x0[i]));
                break;
            }
        }
    }
    free(a);
    return st;
}

/*
 * The shape property: at every nominal event the guard value, the reset and
 * the vector fields before and after do not change when h_j moves.
 */
static hes_status verify_property(hes_shape *sh, int j)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    const hes_traj *tr = &sh->res->orbit.traj;
    int pi = sh->pidx[j];
    hes_status st0 = verify_orbit_definition(sh, j);
    if (st0 != HES_OK)
        return st0;
    double h = sys->p[pi], delta = probe_step_h(h);
    int nm = sys->nmax;
    double *a = malloc(sizeof(double) * 8 * (size_t)nm), scale;
    if (!a)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *g0 = a, *R0 = a + nm, *FI0 = R0 + nm, *FJ0 = FI0 + nm, *g1 = FJ0 + nm,
           *R1 = g1 + nm, *FI1 = R1 + nm, *FJ1 = FI1 + nm;
    hes_status st = HES_OK;
    for (int e = 0; e < tr->n_events && st == HES_OK; e++) {
        const hes_event *ev = &tr->events[e];
        const hes_transition *T = &m->transitions[ev->transition];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        double ta = hes__time_after(m, ev->transition, ev->tm);
        for (int side = 0; side < 3 && st == HES_OK; side++) {
            double *g = side ? g1 : g0, *R = side ? R1 : R0, *FI = side ? FI1 : FI0,
                   *FJ = side ? FJ1 : FJ0;
            sys->p[pi] = side == 0 ? h : side == 1 ? h + delta : h - delta;
            if ((st = hes__guard(sys, ev->transition, ev->tm, ev->x_minus, g)) != HES_OK ||
                (st = hes__reset(sys, ev->transition, ev->tm, ev->x_minus, R)) != HES_OK ||
                (st = hes__field(sys, T->from, ev->tm, ev->x_minus, FI)) != HES_OK ||
                (st = hes__field(sys, T->to, ta, R, FJ)) != HES_OK)
                break;
            if (side == 0)
                continue;
            double xs = 0;
            for (int i = 0; i < ni; i++)
                xs = fmax(xs, fabs(ev->x_minus[i]));
            struct { const char *what; double d, s; } c[3];
            c[0].what = "the guard value";
            c[0].d = fabs(g1[0] - g0[0]);
            c[0].s = xs;
            c[1].what = "the reset";
            c[1].d = max_abs_diff(R1, R0, nj, &c[1].s);
            double d1 = max_abs_diff(FI1, FI0, ni, &scale), s1 = scale;
            double d2 = max_abs_diff(FJ1, FJ0, nj, &scale);
            c[2].what = "the vector field";
            c[2].d = fmax(d1, d2);
            c[2].s = fmax(s1, scale);
            for (int q = 0; q < 3; q++)
                if (!(c[q].d <= 1e-9 * (1.0 + c[q].s))) {
                    st = hes__fail(sys, HES_EINVAL,
                                   "'%s' is not a shape parameter: changing it by %.3g changes %s "
                                   "at the nominal '%s' event (t = %.10g) by %.3g, so it moves the orbit",
                                   m->params[pi].name, side == 1 ? delta : -delta, c[q].what,
                                   T->name, ev->t, c[q].d);
                    break;
                }
        }
    }
    sys->p[pi] = h;
    free(a);
    return st;
}

/* Which event factors depend on which shape parameter (paper Sec. III-C:
 * typically each parameter appears in one saltation matrix). */
static hes_status find_dependencies(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    size_t mm = (size_t)sys->nmax * sys->nmax;
    double *a = malloc(sizeof(double) * 2 * mm), scale;
    if (!a)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    hes_status st = HES_OK;
    for (int j = 0; j < sh->n && st == HES_OK; j++) {
        int pi = sh->pidx[j];
        double h = sys->p[pi], delta = probe_step_h(h);
        for (int k = 0; k < sh->nf && st == HES_OK; k++) {
            if (sh->event[k] < 0)
                continue;
            int len = sh->G[k].rows * sh->G[k].cols;
            for (int side = 0; side < 2 && st == HES_OK; side++) {
                sys->p[pi] = side ? h - delta : h + delta;
                st = event_factor(sh, k, a, NULL, 0);
                if (st == HES_OK) {
                    double d = max_abs_diff(a, sh->G[k].m, len, &scale);
                    if (d > 1e-12 * (1.0 + scale))
                        sh->dep[k + sh->nf * j] = 1;
                }
            }
            sys->p[pi] = h;
        }
    }
    free(a);
    return st;
}

/*
 * Shape parameters mostly enter the guard's and the reset's derivatives
 * linearly (a gain times a state, the paddle's acceleration), so the pieces
 * of a saltation matrix are often affine in h: P(h) = P(h0) + sum_j c_j
 * (h_j - h0_j).  Then dXi/dh_j is the formula's derivative along the
 * constant c_j (hes__saltation_derivative) and the gradient evaluates no
 * model callback at all (the gradient within 1.3 psi
 * evaluations).  Affine is tested at creation, with the probe step d of
 * find_dependencies: along each h_j the second difference
 * |P(h + d) - 2 P(h) + P(h - d)| must be at rounding level (1e-12 of the
 * pieces' scale), and along one joint step of every parameter of the
 * factor (signs alternating) P must be its affine prediction to the same
 * level; a factor that fails keeps forward differences.
 */
static hes_status find_slopes(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    int nf = sh->nf, L = sh->plen;
    double *a = malloc(sizeof(double) * 3 * (size_t)L);
    if (!a)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    double *P0 = a, *Pp = a + L, *Pm = Pp + L, scale;
    hes_status st = HES_OK;
    for (int k = 0; k < nf && st == HES_OK; k++) {
        if (sh->event[k] < 0 || (sh->autonomous && k == nf - 1))
            continue;
        const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
        const hes_transition *T = &sys->model->transitions[ev->transition];
        int len = hes__saltation_pieces_len(sys->model->modes[T->from].dim,
                                            sys->model->modes[T->to].dim);
        if ((st = pieces_at(sh, k, P0)) != HES_OK)
            break;
        (void)max_abs_diff(P0, P0, len, &scale); /* scale = max |P0_i| */
        double tol = 1e-12 * (1.0 + scale);
        int affine = 1, any = 0;
        for (int j = 0; j < sh->n && st == HES_OK && affine; j++) {
            if (!sh->dep[k + nf * j])
                continue;
            int pi = sh->pidx[j];
            double h = sys->p[pi];
            volatile double hp = h + probe_step_h(h), hm = h - probe_step_h(h);
            sys->p[pi] = hp;
            st = pieces_at(sh, k, Pp);
            sys->p[pi] = hm;
            if (st == HES_OK)
                st = pieces_at(sh, k, Pm);
            sys->p[pi] = h;
            double *c = st == HES_OK ? malloc(sizeof(double) * (size_t)len) : NULL;
            if (st == HES_OK && !c)
                st = hes__fail(sys, HES_ENOMEM, "out of memory");
            if (st != HES_OK)
                break;
            for (int i = 0; i < len; i++) {
                affine &= fabs(Pp[i] - 2 * P0[i] + Pm[i]) <= tol;
                c[i] = (Pp[i] - Pm[i]) / (hp - hm);
            }
            sh->slope[k + nf * j] = c;
            any = 1;
        }
        if (st == HES_OK && affine && any) { /* the joint step */
            for (int j = 0, sgn = 1; j < sh->n; j++)
                if (sh->dep[k + nf * j]) {
                    double h = sys->p[sh->pidx[j]];
                    sys->p[sh->pidx[j]] = h + sgn * probe_step_h(h);
                    sgn = -sgn;
                }
            st = pieces_at(sh, k, Pp);
            for (int i = 0; i < len && st == HES_OK; i++) {
                double pred = P0[i];
                for (int j = 0; j < sh->n; j++)
                    if (sh->dep[k + nf * j])
                        pred += sh->slope[k + nf * j][i] *
                                (sys->p[sh->pidx[j]] - sh->h[j]);
                affine &= fabs(Pp[i] - pred) <= tol;
            }
            for (int j = 0; j < sh->n; j++)
                sys->p[sh->pidx[j]] = sh->h[j];
        }
        if (!affine)
            for (int j = 0; j < sh->n; j++) {
                free(sh->slope[k + nf * j]);
                sh->slope[k + nf * j] = NULL;
            }
    }
    free(a);
    return st;
}

/* dep as lists per parameter, and per factor whether anything moves it. */
static hes_status dependency_lists(hes_shape *sh)
{
    int nf = sh->nf, n = sh->n, count = 0;
    for (int i = 0; i < nf * n; i++)
        count += sh->dep[i];
    sh->dep_first = malloc(sizeof(int) * (size_t)(n + 1));
    sh->dep_k = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
    sh->moves = calloc((size_t)nf, 1);
    if (!sh->dep_first || !sh->dep_k || !sh->moves)
        return HES_ENOMEM;
    count = 0;
    for (int j = 0; j < n; j++) {
        sh->dep_first[j] = count;
        for (int k = 0; k < nf; k++)
            if (sh->dep[k + nf * j]) {
                sh->dep_k[count++] = k;
                sh->moves[k] = 1;
            }
    }
    sh->dep_first[n] = count;
    return HES_OK;
}

hes_status hes_shape_create(hes_system *sys, const hes_analysis *res, int n,
                            const char *const *names, hes_shape **out)
{
    if (out)
        *out = NULL;
    if (!sys)
        return HES_EINVAL;
    if (sys->kind != HES_KIND_HYBRID)
        return hes__need_hybrid(sys, "hes_shape_create");
    if (!out || (n > 0 && !names))
        return hes__fail(sys, HES_EINVAL, "shape: needs names for n > 0 and somewhere to put the context");
    *out = NULL;
    const hes_model *m = sys->model;
    if (!res || !res->mono.phi || res->mono.n_factors < 1)
        return hes__fail(sys, HES_EINVAL, "shape: needs a completed analysis");
    if (n == 0)
        for (int i = 0; i < m->n_params; i++)
            n += (m->params[i].flags & HES_PARAM_SHAPE) != 0;
    if (n == 0)
        return hes__fail(sys, HES_EINVAL, "model '%s' has no shape parameters", m->name);
    hes_shape *sh = calloc(1, sizeof *sh);
    if (!sh)
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    sh->sys = sys;
    sh->res = res;
    sh->n = n;
    sh->n0 = res->mono.n;
    sh->autonomous = res->mono.autonomous;
    sh->nf = res->mono.n_factors;
    int nf = sh->nf, nm = sys->nmax, n0 = sh->n0;
    sh->pidx = malloc(sizeof(int) * (size_t)n);
    sh->G = calloc((size_t)nf, sizeof *sh->G);
    sh->event = malloc(sizeof(int) * (size_t)nf);
    sh->dep = calloc((size_t)nf * n, 1);
    sh->fields = malloc(sizeof(double) * 2 * (size_t)nf * nm);
    sh->plen = hes__saltation_pieces_len(nm, nm);
    sh->pieces = malloc(sizeof(double) * (size_t)nf * sh->plen);
    sh->slope = calloc((size_t)nf * n, sizeof *sh->slope);
    sh->dG = calloc((size_t)nf * n, sizeof *sh->dG);
    sh->M = malloc(sizeof(double) * (size_t)nm * n0); /* running products can be nm x n0 */
    sh->normal = malloc(sizeof(double) * (size_t)n0);
    sh->tmp = malloc(sizeof(double) * (size_t)nm * n0);
    sh->dpsi = malloc(sizeof(double) * (size_t)n);
    sh->dabs = malloc(sizeof(double) * (size_t)n * n0);
    sh->h = malloc(sizeof(double) * (size_t)n);
    sh->sens = malloc(sizeof(double) * (size_t)4 * nf * nm);
    sh->fd = malloc(sizeof(double) * (2 * (size_t)nm * nm + (size_t)sh->plen));
    sh->eigbuf = malloc(sizeof(double) * 4 * (size_t)n0);
    if (!sh->pidx || !sh->G || !sh->event || !sh->dep || !sh->fields || !sh->pieces ||
        !sh->slope || !sh->dG || !sh->M || !sh->normal ||
        !sh->tmp || !sh->dpsi || !sh->dabs || !sh->h || !sh->sens || !sh->fd ||
        !sh->eigbuf || hes__stability_alloc(&sh->st, n0) != HES_OK) {
        hes_shape_destroy(sh);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    for (int j = 0, i = 0; j < n; i++) {
        if (names) {
            sh->pidx[j] = hes_model_param_index(m, names[j]);
            if (sh->pidx[j] < 0) {
                hes_shape_destroy(sh);
                return hes__fail(sys, HES_ENOTFOUND, "model '%s' has no parameter '%s'",
                                 m->name, names[j]);
            }
            j++;
        } else if (m->params[i].flags & HES_PARAM_SHAPE) {
            sh->pidx[j++] = i;
        }
    }
    /* factors: copies of the phases, event factors recomputed below */
    for (int k = 0, e = 0; k < nf; k++)
        sh->event[k] = res->mono.factors[k].kind == HES_FACTOR_EVENT ? e++ : -1;
    hes_status st = event_fields(sh);
    for (int k = 0; k < nf && st == HES_OK; k++) {
        const hes_factor *f = &res->mono.factors[k];
        hes_factor *g = &sh->G[k];
        *g = *f;
        if (sh->autonomous && k == nf - 1) { /* S: n_J x n_I like the saltation matrix */
            const hes_transition *T = &m->transitions[f->index];
            g->rows = m->modes[T->to].dim;
            g->cols = m->modes[T->from].dim;
        }
        g->m = malloc(sizeof(double) * (size_t)g->rows * g->cols);
        if (!g->m) {
            st = hes__fail(sys, HES_ENOMEM, "out of memory");
            break;
        }
        if (sh->event[k] < 0)
            memcpy(g->m, f->m, sizeof(double) * (size_t)g->rows * g->cols);
        else if ((st = event_factor(sh, k, g->m, sh->autonomous && k == nf - 1 ? sh->normal : NULL,
                                    1)) != HES_OK)
            break;
    }
    for (int j = 0; j < n && st == HES_OK; j++)
        st = verify_property(sh, j);
    if (st == HES_OK)
        st = find_dependencies(sh);
    for (int j = 0; j < n; j++)
        sh->h[j] = sys->p[sh->pidx[j]];
    if (st == HES_OK)
        st = find_slopes(sh);
    for (int k = 0; k < nf && st == HES_OK; k++)
        for (int j = 0; j < n; j++)
            if (sh->dep[k + nf * j] &&
                !(sh->dG[k + nf * j] = malloc(sizeof(double) * (size_t)sh->G[k].rows * sh->G[k].cols)))
                st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st == HES_OK && (st = dependency_lists(sh)) != HES_OK)
        st = hes__fail(sys, HES_ENOMEM, "out of memory");
    if (st != HES_OK) {
        hes_shape_destroy(sh);
        return st;
    }
    *out = sh;
    return HES_OK;
}

/* M = G_nf ... G_1 */
static void compose(hes_shape *sh)
{
    int n0 = sh->n0, rows = n0;
    double *cur = sh->M, *nxt = sh->tmp;
    memset(cur, 0, sizeof(double) * (size_t)n0 * n0);
    for (int i = 0; i < n0; i++)
        cur[i + (size_t)i * n0] = 1.0;
    for (int k = 0; k < sh->nf; k++) {
        hes__matmul(sh->G[k].rows, rows, n0, sh->G[k].m, cur, nxt);
        rows = sh->G[k].rows;
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (cur != sh->M)
        memcpy(sh->M, cur, sizeof(double) * (size_t)n0 * n0);
}

/* Factors and multipliers at the current parameters. */
static hes_status refresh(hes_shape *sh)
{
    hes_status st = HES_OK;
    for (int k = 0; k < sh->nf && st == HES_OK; k++) {
        if (sh->moves[k])
            st = event_factor(sh, k, sh->G[k].m,
                              sh->autonomous && k == sh->nf - 1 ? sh->normal : NULL, 1);
    }
    if (st != HES_OK)
        return st;
    compose(sh);
    hes_monodromy view;
    memset(&view, 0, sizeof view);
    view.n = sh->n0;
    view.autonomous = sh->autonomous;
    view.phi = sh->M;
    view.proj = sh->autonomous ? sh->M : NULL;
    view.normal = sh->autonomous ? sh->normal : NULL;
    view.accuracy = sh->res->mono.accuracy;
    st = hes_stability_update(&view, &sh->st);
    if (st != HES_OK)
        return hes__fail(sh->sys, st, "multipliers at the new shape values: %s", hes_strerror(st));
    return HES_OK;
}

/* dG_k/dh_j: the saltation formula's derivative along the pieces' slope
 * where they are affine in h (find_slopes: no model callback), else
 * forward differences of the event formula in h_j from the factors at h
 * (refresh() has just computed them): one event evaluation per
 * (parameter, dependent event).  Both keep the gradient near 1.3 psi
 * evaluations; the differences' error, about sqrt(eps) relative
 * (hes__fd_step_forward), is far below what the optimiser and the tests
 * resolve (test_shape: the closed-form gradient of the Hopf chain to
 * 1e-6). */
static hes_status factor_derivatives(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    double *a = sh->fd;
    hes_status st = HES_OK;
    for (int j = 0; j < sh->n && st == HES_OK; j++) {
        int pi = sh->pidx[j];
        double h = sys->p[pi];
        volatile double hp = h + hes__fd_step_forward(h); /* an exact step */
        for (int q = sh->dep_first[j]; q < sh->dep_first[j + 1] && st == HES_OK; q++) {
            int k = sh->dep_k[q];
            double *D = sh->dG[k + sh->nf * j];
            const double *c = sh->slope[k + sh->nf * j];
            if (c) {
                const hes_transition *T =
                    &m->transitions[sh->res->orbit.traj.events[sh->event[k]].transition];
                const double *F = sh->fields + (size_t)2 * sys->nmax * k;
                hes__saltation_derivative(m->modes[T->from].dim, m->modes[T->to].dim,
                                          sh->pieces + (size_t)sh->plen * k, c, F,
                                          F + sys->nmax, D);
                continue;
            }
            int len = sh->G[k].rows * sh->G[k].cols;
            sys->p[pi] = hp;
            st = event_factor(sh, k, a, NULL, 0);
            sys->p[pi] = h;
            for (int i = 0; i < len && st == HES_OK; i++)
                D[i] = (a[i] - sh->G[k].m[i]) / (hp - h);
        }
    }
    return st;
}

/* d|lambda_j|/dh for every shape parameter into out[n] (eigenvalue j), by
 * eigenvalue perturbation over the stored factors (eigsens.c). */
static void modulus_gradient(hes_shape *sh, int j, double *out)
{
    hes__eig_sens es;
    hes__eig_sens_init(&es, &sh->st, j, sh->nf, sh->G, sh->sys->nmax, sh->sens);
    for (int p = 0; p < sh->n; p++) {
        double nr = 0, ni = 0; /* sum_k a_k dG_k b_k */
        for (int q = sh->dep_first[p]; q < sh->dep_first[p + 1]; q++) {
            int k = sh->dep_k[q];
            hes__eig_sens_term(&es, k, sh->G[k].rows, sh->G[k].cols, sh->dG[k + sh->nf * p],
                               &nr, &ni);
        }
        out[p] = hes__eig_sens_modulus(&es, nr, ni);
    }
}

/* One-sided differences of psi in each h_j (the fallback). */
static hes_status psi_differences(hes_shape *sh, int *nonsmooth)
{
    hes_system *sys = sh->sys;
    double psi0 = sh->st.psi;
    hes_status st = HES_OK;
    *nonsmooth = 0;
    for (int j = 0; j < sh->n && st == HES_OK; j++) {
        int pi = sh->pidx[j];
        double h = sys->p[pi], d = SHAPE_FALLBACK_STEP * fmax(1.0, fabs(h)), psi[2];
        for (int s = 0; s < 2 && st == HES_OK; s++) {
            sys->p[pi] = s ? h - d : h + d;
            if ((st = refresh(sh)) == HES_OK)
                psi[s] = sh->st.psi;
        }
        sys->p[pi] = h;
        if (st != HES_OK)
            break;
        double up = (psi[0] - psi0) / d, down = (psi0 - psi[1]) / d;
        if (fabs(up - down) <= 1e-3 * fmax(1.0, fabs(up) + fabs(down))) {
            sh->dpsi[j] = 0.5 * (up + down);
        } else {
            *nonsmooth = 1;
            sh->dpsi[j] = up * down <= 0 ? 0.0 : fabs(up) < fabs(down) ? up : down;
        }
    }
    if (st == HES_OK)
        st = refresh(sh); /* back to h */
    return st;
}

hes_status hes_shape_eval(hes_shape *sh, const double *h, int grad, hes_shape_eval_result *out)
{
    if (!sh || !out) {
        if (out)
            memset(out, 0, sizeof *out);
        return sh ? hes__fail(sh->sys, HES_EINVAL, "shape: nowhere to put the result (NULL)") : HES_EINVAL;
    }
    hes_system *sys = sh->sys;
    memset(out, 0, sizeof *out);
    for (int j = 0; h && j < sh->n; j++) {
        if (!isfinite(h[j]))
            return hes__fail(sys, HES_EINVAL, "shape value %s = %g is not finite",
                             sys->model->params[sh->pidx[j]].name, h[j]);
        sys->p[sh->pidx[j]] = h[j];
    }
    hes_status st = refresh(sh);
    if (st != HES_OK)
        return st;
    const hes_stability *S = &sh->st;
    out->n_shape = sh->n;
    out->n_mult = S->n_mult;
    out->psi = S->psi;
    out->abs = S->abs;
    out->re = S->re;
    out->im = S->im;
    out->cond = S->cond;
    if (!grad)
        return HES_OK;
    if ((st = factor_derivatives(sh)) != HES_OK)
        return st;
    double *b = sh->eigbuf;
    int max_repeated = 0, moduli = grad == HES_SHAPE_GRAD_PSI && S->n_mult > 0 ? 1 : S->n_mult;
    for (int k = 0; k < moduli; k++) {
        double *col = sh->dabs + k; /* row k of the n_mult x n matrix, stride n_mult */
        int j = S->order[k];
        if (hes__eig_repeated(S, j, b)) {
            for (int p = 0; p < sh->n; p++)
                col[(size_t)p * S->n_mult] = NAN;
            max_repeated |= k == 0;
            continue;
        }
        modulus_gradient(sh, j, sh->dpsi);
        for (int p = 0; p < sh->n; p++)
            col[(size_t)p * S->n_mult] = sh->dpsi[p];
    }
    if (S->n_mult == 0) {
        memset(sh->dpsi, 0, sizeof(double) * (size_t)sh->n);
    } else if (max_repeated) {
        out->fallback = 1;
        if ((st = psi_differences(sh, &out->nonsmooth)) != HES_OK)
            return st;
        S = &sh->st; /* refreshed */
        out->abs = S->abs;
        out->re = S->re;
        out->im = S->im;
    } else {
        for (int p = 0; p < sh->n; p++)
            sh->dpsi[p] = sh->dabs[(size_t)p * S->n_mult];
    }
    out->dpsi = sh->dpsi;
    out->dabs = grad == HES_SHAPE_GRAD_PSI ? NULL : sh->dabs;
    return HES_OK;
}
