/*
 * shape_property.c - the shape-parameter property (the HES paper, Sec.
 * III: a shape parameter enters the saltation matrices but not the orbit),
 * checked for each parameter by probing: it is not solved for and does not
 * set the section state, and a step of it moves neither the resets' images
 * nor the events' vector fields; then which factors each parameter moves,
 * and where their pieces are affine in it (their slopes).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/shape_internal.h"

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
            int is_free = o->free_quotient; /* in the quotient every component is solved */
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
hes_status hes__shape_verify_property(hes_shape *sh, int j)
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
hes_status hes__shape_find_dependencies(hes_shape *sh)
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
                st = hes__shape_event_factor(sh, k, a, NULL, 0);
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
hes_status hes__shape_find_slopes(hes_shape *sh)
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
        if ((st = hes__shape_pieces_at(sh, k, P0)) != HES_OK)
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
            st = hes__shape_pieces_at(sh, k, Pp);
            sys->p[pi] = hm;
            if (st == HES_OK)
                st = hes__shape_pieces_at(sh, k, Pm);
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
            st = hes__shape_pieces_at(sh, k, Pp);
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
hes_status hes__shape_dependency_lists(hes_shape *sh)
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
