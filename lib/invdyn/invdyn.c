/*
 * invdyn.c - inverse dynamics with rigid contact and friction: joint
 * torques and contact forces together for a desired motion (Zapolsky &
 * Drumwright, "Inverse dynamics with rigid contact and friction", Sec.
 * 3-6).  Its factorisations are base/dense.c's, not LAPACK's:
 * the same bits whatever the BLAS's thread count.  The formulations, in force units (hes.h explains the
 * division of the paper's impulses by dt):
 *
 *   M a + h = B tau + J^T f,   B^T a = B^T a_des,   w = J a + b.
 *
 * Eliminating a and tau against equality columns X (B, and for no-slip the
 * tangential rows Algorithm 1 keeps) with targets r (B^T a_des, -b_t):
 *   Ge = X^T M^-1 X,  W = M^-1 - M^-1 X Ge^-1 X^T M^-1,
 *   a  = a0 + W U^T f_U,  a0 = -W h + M^-1 X Ge^-1 r,
 *   y  = Ge^-1 (r - X^T M^-1 (U^T f_U - h))   (tau and the equality forces),
 * so the contact problems are in the remaining forces f_U alone, with the
 * matrix U W U^T (the paper's C^T A^-1 C, eq. 44, and N X^-1 N^T, eq. 64
 * and 75).  W M W = W and B^T W = 0 give the convex objective's linear
 * term (eq. 75): 1/2 |v+|_M^2 / dt^2 = 1/2 f^T U W U^T f
 * + f^T U W (M v / dt - h) + const.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "invdyn/invdyn_ws.h"

void hes_invdyn_options_init(hes_invdyn_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->method = HES_INVDYN_NO_SLIP;
    o->stage2 = 1;
    o->min_friction = 1;
}


static const char *const method_names[] = { "none", "no-slip", "coulomb", "convex",
                                            "convex-no-slip" };

const char *hes_invdyn_method_name(hes_invdyn_method m)
{
    return (int)m >= 0 && (int)m < HES_INVDYN_N_METHODS ? method_names[m] : NULL;
}

hes_status hes_invdyn_method_from_name(const char *name, hes_invdyn_method *m)
{
    int i = hes__name_index(method_names, HES_INVDYN_N_METHODS, name);
    if (i < 0 || !m)
        return HES_EINVAL;
    *m = (hes_invdyn_method)i;
    return HES_OK;
}

void hes_invdyn_destroy(hes_invdyn *id)
{
    if (!id)
        return;
    double *d[] = { id->tau, id->a, id->f, id->w, id->ratio, id->Minv, id->MiB, id->G, id->WB,
                    id->a0B, id->X, id->MiX, id->Ge, id->We, id->a0e, id->re, id->Y, id->U,
                    id->WUt, id->H, id->c, id->x, id->x0, id->Gq, id->gq, id->Z, id->R, id->ev,
                    id->tmp, id->tmp2 };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    free(id->active), free(id->prev), free(id->sel), free(id->nonneg), free(id->nb);
    free(id->pidx), free(id->cprev), free(id->cA), free(id->cz), free(id->cix);
    hes__nnls_free(id->cls);
    hes__invdyn_convex_free(id);
    free(id);
}

hes_status hes_invdyn_new(int nv, int nu, int nc, int tangents, hes_invdyn **out,
                          hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!out)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: needs somewhere to put it");
    *out = NULL;
    if (nv < 1 || nu < 1 || nu > nv || nc < 0 || (tangents != 1 && tangents != 2))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: need 1 <= nu <= nv, nc >= 0 "
                        "and 1 or 2 tangents (got nv %d, nu %d, nc %d, tangents %d)", nv, nu,
                        nc, tangents);
    hes_invdyn *id = calloc(1, sizeof *id);
    if (!id)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for an inverse-dynamics workspace");
    int rows = nc * (1 + tangents), ne = nu + rows, um = nc * (1 + 2 * tangents);
    id->nv = nv, id->nu = nu, id->nc = nc, id->t = tangents, id->rows = rows;
    id->ne_max = ne, id->u_max = um;
    size_t V = (size_t)nv, E = (size_t)ne, Um = (size_t)(um > 0 ? um : 1),
           C = (size_t)(nc > 0 ? nc : 1), Rw = (size_t)(rows > 0 ? rows : 1);
    size_t gm = Um + C;          /* constraint rows of the QPs */
#define A(p, n) ((p) = calloc((n), sizeof *(p)), ok = ok && (p))
    int ok = 1;
    A(id->tau, (size_t)nu), A(id->a, V), A(id->f, Rw), A(id->w, Rw), A(id->ratio, C);
    A(id->active, C), A(id->prev, C), A(id->sel, Rw), A(id->nonneg, Um), A(id->nb, C);
    A(id->pidx, C), A(id->cprev, Um + C), A(id->cA, (Um + C) * (Um + C));
    A(id->cz, 2 * (Um + C)), A(id->cix, 2 * (Um + C));
    if (nc > 0)
        ok = ok && (id->cls = hes__nnls_alloc((int)(Um + C), (int)(Um + C)));
    A(id->Minv, V * V), A(id->MiB, V * nu), A(id->G, (size_t)nu * nu), A(id->WB, V * V);
    A(id->a0B, V), A(id->X, V * E), A(id->MiX, V * E), A(id->Ge, E * E), A(id->We, V * V);
    A(id->a0e, V), A(id->re, E), A(id->Y, E * V), A(id->U, Um * V), A(id->WUt, V * Um);
    A(id->H, Um * Um), A(id->c, Um), A(id->x, Um), A(id->x0, Um), A(id->Gq, gm * Um);
    A(id->gq, gm), A(id->Z, Um * Um), A(id->R, (size_t)nu * Um), A(id->ev, Um + V + E);
    A(id->tmp, V + E + Um + gm), A(id->tmp2, V + E + Um + gm);
#undef A
    if (!ok || !hes__invdyn_convex_alloc(id)) {
        hes_invdyn_destroy(id);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for an inverse-dynamics workspace");
    }
    *out = id;
    return HES_OK;
}

const char *hes_invdyn_errmsg(const hes_invdyn *id)
{
    return id ? id->msg : NULL;
}

void hes_invdyn_reset(hes_invdyn *id)
{
    if (id)
        id->have_prev = 0, id->have_cvx = 0, id->have_cprev = 0;
}

/* A row's offset: N v+ >= -phi / dt (eq. 36; S v+ = 0, eq. 40, with phi
 * = 0) per unit time, N a + (N v + phi / dt) / dt >= 0, plus the drift
 * J' v where it is kept. */
static double offset(double Jv, double phi, double dt, double drift)
{
    return (Jv + phi / dt) / dt + drift;
}

void hes_invdyn_offsets(int nv, int nc, int tangents, const double *J, const double *v,
                        const double *phi, const double *Jdv, double dt, int drift, double *b)
{
    int rows = nc * (1 + tangents);
    for (int r = 0; r < rows; r++) {
        double Jv = 0;
        for (int j = 0; j < nv; j++)
            Jv += J[r + (size_t)j * rows] * v[j];
        b[r] = offset(Jv, r < nc && phi ? phi[r] : 0, dt, drift && Jdv ? Jdv[r] : 0);
    }
}

void hes_invdyn_problem_robot(const hes_robot_dynamics *d, const int *active, const double *v,
                              const double *a_des, double dt, int drift, double *J, double *b,
                              double *mu, hes_invdyn_problem *pb)
{
    if (!d || !J || !b || !mu || !pb || (d->nv > 0 && (!v || !a_des)))
        return;
    int nv = d->nv, nc = 0, all = d->nc * (1 + d->tangents);
    for (int c = 0; c < d->nc; c++)
        nc += !active || active[c];
    int rows = nc * (1 + d->tangents);
    for (int dir = 0, r = 0; dir <= d->tangents; dir++)
        for (int c = 0; c < d->nc; c++) {
            if (active && !active[c])
                continue;
            for (int j = 0; j < nv; j++)
                J[r + (size_t)j * rows] = d->J[dir * d->nc + c + (size_t)j * all];
            r++;
        }
    for (int dir = 0, r = 0; dir <= d->tangents; dir++)
        for (int c = 0; c < d->nc; c++) {
            if (active && !active[c])
                continue;
            double Jv = 0;
            for (int j = 0; j < nv; j++)
                Jv += J[r + (size_t)j * rows] * v[j];
            b[r] = offset(Jv, dir == 0 ? d->phi[c] : 0, dt,
                          drift ? d->Jdv[dir * d->nc + c] : 0);
            if (dir == 0)
                mu[r] = d->mu[c];
            r++;
        }
    *pb = (hes_invdyn_problem){ nv, d->nu, nc, d->tangents, d->M, d->h, d->B, J, b, mu, v, dt,
                                a_des, d->tau_max };
}

/* ------------------------------------------------------------- solve */

static hes_status check_problem(const hes_invdyn *id, const hes_invdyn_problem *pb,
                                hes_invdyn_method method, char *msg, size_t len)
{
    if (pb->nv != id->nv || pb->nu != id->nu || pb->nc != id->nc || pb->tangents != id->t)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the problem's sizes (nv %d, "
                        "nu %d, nc %d, tangents %d) are not the workspace's (%d, %d, %d, %d)",
                        pb->nv, pb->nu, pb->nc, pb->tangents, id->nv, id->nu, id->nc, id->t);
    if (!pb->M || !pb->h || !pb->B || !pb->a_des || !pb->v || (id->nc > 0 &&
        (!pb->J || !pb->b || !pb->mu)))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: M, h, B, v, a_des (and with "
                        "contacts J, b, mu) are required");
    if (!(pb->dt > 0) || !isfinite(pb->dt))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: dt must be positive and "
                        "finite (got %g)", pb->dt);
    int nv = id->nv;
    if (!hes__all_finite(pb->M, nv * nv) || !hes__all_finite(pb->h, nv) ||
        !hes__all_finite(pb->B, nv * id->nu) || !hes__all_finite(pb->a_des, nv) ||
        !hes__all_finite(pb->v, nv) ||
        (id->nc > 0 && (!hes__all_finite(pb->J, id->rows * nv) ||
                        !hes__all_finite(pb->b, id->rows))))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: a non-finite input");
    for (int c = 0; c < id->nc; c++)
        if (!(pb->mu[c] >= 0) || !isfinite(pb->mu[c]))
            return hes__say(msg, len, HES_EINVAL, "inverse dynamics: contact %d's friction "
                            "coefficient %g is not finite and >= 0", c, pb->mu[c]);
    /* The pyramid's edges n +- mu t resolve the normal force only to about
       eps mu of the tangential one (HES_INVDYN_MU_MAX, hes.h) */
    for (int c = 0; c < id->nc; c++)
        if (pb->mu[c] > HES_INVDYN_MU_MAX &&
            (method == HES_INVDYN_COULOMB || method == HES_INVDYN_CONVEX))
            return hes__say(msg, len, HES_EINVAL, "inverse dynamics: contact %d's friction "
                            "coefficient %g is beyond %g, the largest whose pyramid double "
                            "precision resolves; for friction without limit use no-slip or "
                            "convex-no-slip", c, pb->mu[c], HES_INVDYN_MU_MAX);
    return HES_OK;
}

/* The result and its checks: the tracking of the desired joint
 * accelerations, the whole equation of motion, each contact's friction
 * ratio, slide and cone, the motors' limits; the status they give. */
static hes_status verdict(hes_invdyn *id, const hes_invdyn_problem *pb,
                          const hes_invdyn_options *op, hes_invdyn_result *res, char *msg,
                          size_t len)
{
    int nv = id->nv, nu = id->nu, nc = id->nc, t = id->t, rows = id->rows;
    hes_invdyn_options o = *op;
    res->tau = id->tau, res->a = id->a, res->f = id->f, res->w = id->w;
    res->ratio = id->ratio, res->active = id->active;
    /* the scale of the contact accelerations: 1, |b|, |J a_des| */
    double bscale = 1;
    for (int r = 0; r < rows; r++) {
        double ja = 0;
        for (int j = 0; j < nv; j++)
            ja += pb->J[r + (size_t)j * rows] * pb->a_des[j];
        bscale = fmax(bscale, fmax(fabs(pb->b[r]), fabs(ja)));
    }
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * (id->a[i] - pb->a_des[i]);
        res->tracking = fmax(res->tracking, fabs(s));
    }
    for (int i = 0; i < nv; i++)
        res->unactuated = fmax(res->unactuated, fabs(id->a[i] - pb->a_des[i]));
    /* The whole equation of motion with the desired acceleration, the
       unactuated rows too: r = M a_des + h - B tau - J^T f = M (a_des - a)
       (a solves it exactly), against the size of its terms.  Only B^T a is
       imposed; the rest of a follows from the contact forces, and where
       they cannot produce the desired base acceleration (no foot on the
       ground, a stance that cannot push that way) the motion is not
       feasible, whatever the actuated rows say. */
    int eom_row = -1;
    double eom_scale = 0;
    for (int i = 0; i < nv; i++) {
        double s = fabs(pb->h[i]);
        for (int j = 0; j < nv; j++)
            s += fabs(pb->M[i + (size_t)j * nv] * pb->a_des[j]);
        for (int k = 0; k < nu; k++)
            s += fabs(pb->B[i + (size_t)k * nv] * id->tau[k]);
        for (int r = 0; r < rows; r++)
            s += fabs(pb->J[r + (size_t)i * rows] * id->f[r]);
        eom_scale = fmax(eom_scale, s);
    }
    res->eom = 0;
    for (int i = 0; i < nv; i++) {
        double r = 0;
        for (int j = 0; j < nv; j++)
            r += pb->M[i + (size_t)j * nv] * (pb->a_des[j] - id->a[j]);
        r = eom_scale > 0 ? fabs(r) / eom_scale : 0;
        if (r > res->eom)
            res->eom = r, eom_row = i;
    }
    double ascale = 1;
    for (int i = 0; i < nv; i++)
        ascale = fmax(ascale, fabs(pb->a_des[i]));
    if (!(res->tracking <= 1e-6 * ascale))     /* the joints must get what was asked */
        return hes__say(msg, len, HES_ESOLVER, "%s: the solution misses the desired joint "
                        "accelerations by %.3g (ill-conditioned)", method_names[o.method],
                        res->tracking);
    /* per contact: the friction ratio; sliding (a contact that stays, its
       tangential acceleration above tol_slip); a saturated cone (Coulomb,
       convex: the pyramid's sum at mu f_N), and for no-slip a ratio above
       mu.  A slide is infeasible where the cone is saturated (the friction
       is what is missing) and for no-slip (its model forbids it: the
       desired accelerations move a stance contact, Sec. 4.5); the
       complementarity-free model may also slide inside the cone (it
       maximises dissipation, which with the actuators' constraint need
       not stop the contact): then it is reported in res->slip only. */
    int slide = -1, cone = -1, motor = -1;
    double fscale = 0;
    for (int r = 0; r < rows; r++)
        fscale = fmax(fscale, fabs(id->f[r]));
    double slide_w = 0, tslip = o.tol_slip * bscale;
    /* One friction model for every answer: the pyramid |f_s| + |f_t| <=
       mu f_n (the linearised cone of the Coulomb and convex formulations and
       of the smallest friction's search; for a planar robot, t = 1, the
       cone itself), in the ratios, the cone check and mu_min alike. */
    for (int c = 0; c < nc; c++) {
        double fn = id->f[c], wt = 0, sum = 0;
        for (int d = 1; d <= t; d++) {
            sum += fabs(id->f[d * nc + c]);
            wt = fmax(wt, fabs(id->w[d * nc + c]));
        }
        /* forces at the level of the QPs' regularisation (HES__QP_REG of the
           largest force: the smallest friction's distribution of the forces is
           a regularised QP's solution) are no load */
        double noise = HES__QP_REG * fscale;
        id->active[c] = fn > noise;
        id->ratio[c] = fn > noise ? sum / fn : (sum > noise ? INFINITY : 0);
        res->mu_needed = fmax(res->mu_needed, id->ratio[c]);
        int stays = id->w[c] <= tslip, slides = stays && wt > tslip;
        if (slides)
            res->slip = fmax(res->slip, wt);
        /* a contact without load has no cone to saturate (it may slide freely) */
        int saturated = o.method != HES_INVDYN_CONVEX_NO_SLIP && id->active[c] &&
                        sum >= pb->mu[c] * fn * (1 - 1e-6) - 1e-12;
        if (o.method != HES_INVDYN_NONE && slides && slide < 0 &&
            (saturated || o.method == HES_INVDYN_NO_SLIP))
            slide = c, slide_w = wt;
        if (o.method == HES_INVDYN_NO_SLIP && sum > pb->mu[c] * fn * (1 + 1e-9) + noise &&
            cone < 0)
            cone = c;
    }
    for (int k = 0; pb->tau_max && k < nu; k++)
        if (pb->tau_max[k] > 0 && fabs(id->tau[k]) > pb->tau_max[k] && motor < 0)
            motor = k;
    if (o.method != HES_INVDYN_NONE && o.tol_eom >= 0 && res->eom > o.tol_eom && slide < 0 &&
        cone < 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: the equation of motion fails on "
                        "coordinate %d by %.3g of its terms' size (M a + h = B tau + J^T f "
                        "with the desired a): %s", method_names[o.method], eom_row, res->eom,
                        res->slip > 0
                        ? "the model's stance contacts slide inside their cones (it "
                          "dissipates), so the body does not follow the desired motion"
                        : "no contact force and no motor produces the desired acceleration "
                          "there (a coordinate without a motor, e.g. a floating base with "
                          "no foot on the ground)");
    res->contact = slide >= 0 ? slide : cone;
    if (slide >= 0 && o.method == HES_INVDYN_NO_SLIP)
        return hes__say(msg, len, HES_EINFEASIBLE, "no-slip: the desired accelerations move "
                        "stance contact %d along the ground (%.3g): they are inconsistent with "
                        "its no-slip constraint", slide, slide_w);
    if (slide >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: contact %d slides at the edge of its "
                        "friction cone (tangential acceleration %.3g): the motion needs more "
                        "friction than %g", method_names[o.method], slide, slide_w, pb->mu[slide]);
    if (cone >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "no-slip: contact %d needs friction %.4g, "
                        "more than its %g", cone, id->ratio[cone], pb->mu[cone]);
    if (motor >= 0)
        return hes__say(msg, len, HES_EINFEASIBLE, "%s: motor %d needs %.4g, beyond its limit "
                        "%g", method_names[o.method], motor, id->tau[motor], pb->tau_max[motor]);
    return HES_OK;
}

static hes_status solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                        const hes_invdyn_options *opts, hes_invdyn_result *res, char *msg,
                        size_t len);

hes_status hes_invdyn_solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                            const hes_invdyn_options *opts, hes_invdyn_result *res, hes_error *err)
{
    /* the workspace keeps the message too (its own last failure) */
    hes_error own;
    hes_error *e = err ? err : &own;
    hes_status st = solve(id, pb, opts, res, hes__errbuf(e), hes__errlen(e));
    if (id)
        snprintf(id->msg, sizeof id->msg, "%s", st == HES_OK ? "" : e->message);
    return st;
}

/* hes_invdyn_solve, reporting through (msg, len). */
static hes_status solve(hes_invdyn *id, const hes_invdyn_problem *pb,
                        const hes_invdyn_options *opts, hes_invdyn_result *res, char *msg,
                        size_t len)
{
    if (!id || !pb || !res)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: needs a workspace, a "
                        "problem and a result");
    hes_invdyn_options o = opts ? *opts : (hes_invdyn_options){ .method = HES_INVDYN_NO_SLIP, .stage2 = 1 };
    if ((int)o.method < 0 || (int)o.method >= HES_INVDYN_N_METHODS)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: unknown method %d",
                        (int)o.method);
    hes_status st = check_problem(id, pb, o.method, msg, len);
    if (st != HES_OK)
        return st;
    if (o.tol <= 0)
        o.tol = 1e-9;
    if (o.tol_slip <= 0)
        o.tol_slip = 1e-6;
    if (o.tol_eom == 0)
        o.tol_eom = 1e-6;
    if (!(o.tol_eom < 0 || o.tol_eom > 0))
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the equation of motion's "
                        "tolerance is not a number");
    int nv = id->nv, nu = id->nu, nc = id->nc, rows = id->rows;
    memset(res, 0, sizeof *res);
    res->contact = -1;
    /* M^-1, then G = B^T M^-1 B (full rank: the paper's X of eq. 63 is
       nonsingular), W_B and a0_B */
    memcpy(id->Minv, pb->M, sizeof(double) * (size_t)nv * (size_t)nv);
    int ci = hes__chol_inverse(id->Minv, nv);
    if (ci < 0)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (ci != 0)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: M is not positive definite");
    for (int k = 0; k < nu; k++) {
        double s = 0;
        for (int i = 0; i < nv; i++)
            s += pb->B[i + (size_t)k * nv] * pb->a_des[i];
        id->re[k] = s;
    }
    if (hes__invdyn_eliminate(id, pb->h, nu, pb->B, id->re, id->MiB, id->WB, id->a0B) != 0)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the input matrix B does not "
                        "have full column rank (B^T M^-1 B is singular)");
    memcpy(id->G, id->Ge, sizeof(double) * (size_t)nu * (size_t)nu);
    memset(id->f, 0, sizeof(double) * (size_t)(rows > 0 ? rows : 1));
    switch (nc > 0 ? o.method : HES_INVDYN_NONE) {
    case HES_INVDYN_NONE: st = HES_OK; break;
    case HES_INVDYN_NO_SLIP: st = hes__invdyn_no_slip(id, pb, &o, res, msg, len); break;
    case HES_INVDYN_COULOMB: st = hes__invdyn_coulomb(id, pb, &o, res, msg, len); break;
    default: st = hes__invdyn_convex_lcp(id, pb, &o, res, msg, len); break;
    }
    if (st != HES_OK)
        return st;
    hes__invdyn_finish(id, pb);
    res->mu_min = -1;
    if (o.min_friction && o.method == HES_INVDYN_NO_SLIP && nc > 0) {
        st = hes__invdyn_min_friction(id, pb, o.tol, res, msg, len);
        if (st != HES_OK)
            return st;
    }
    return verdict(id, pb, &o, res, msg, len);
}
