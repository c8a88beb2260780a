/*
 * invdyn_run.c - inverse dynamics along a robot's trajectory:
 * per node the robot's dynamics (hes_robot_dynamics_at), its stance
 * contacts, the problem (hes_invdyn_problem_robot) and its solution
 * (hes_invdyn_solve), collected per node.  Velocities and accelerations,
 * when not given, come from hes_sampled_derivatives.  A workspace is kept
 * per stance set (at most 2^nc of them, made when first needed), so that
 * the no-slip warm start carries over between the nodes of one stance.
 * Configurations have the robot's nq coordinates, velocities and
 * accelerations its nv (hes_mech.quat: a quaternion's velocity is the
 * body's angular velocity).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

void hes_invdyn_run_options_init(hes_invdyn_run_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    hes_invdyn_options_init(&o->solve);
    o->dt = 1e-3;
    o->stance_tol = 1e-4;
}

void hes_invdyn_run_free(hes_invdyn_run *r)
{
    if (!r)
        return;
    free(r->t), free(r->status), free(r->message), free(r->stance), free(r->tau), free(r->f);
    free(r->ratio), free(r->mu_min), free(r->slip);
    memset(r, 0, sizeof *r);
}

/*
 * Velocities and accelerations of sampled configurations q (nodes x nq)
 * at times t, on the configuration manifold: at node i those of the
 * quadratic through the triple of hes_sampled_derivatives (i and its
 * neighbours; the first three, the last three at the ends) in the chart
 * of node i, y_k = q_k (-) q_i (hes_mech_difference), where y_i = 0.  For
 * coordinates without quaternions these are the derivatives of the
 * samples themselves; for a quaternion, q(t) = q_i (+) y(t) has the body's
 * angular velocity y' at t_i and its rate y'' (the next term, -1/2 y' x
 * y', vanishes), so a rotation at a constant rate about a fixed axis is
 * sampled exactly.  work: 9 nv doubles.  HES_EINVAL for times that do not
 * increase.
 */
static hes_status sampled_motion(const hes_mech *m, int nodes, const double *t,
                                 const double *q, double *vel, double *acc, double *work)
{
    int nq = hes_mech_nq(m), nv = m->d;
    double *y = work, *dy = y + 3 * nv, *ddy = dy + 3 * nv;
    for (int i = 0; i < nodes; i++) {
        int first = i == 0 ? 0 : i == nodes - 1 ? nodes - 3 : i - 1, at = i - first;
        for (int k = 0; k < 3; k++)
            hes_mech_difference(m, q + (size_t)(first + k) * nq, q + (size_t)i * nq,
                                y + (size_t)k * nv);
        if (hes_sampled_derivatives(3, nv, t + first, y, dy, ddy) != HES_OK)
            return HES_EINVAL;
        memcpy(vel + (size_t)i * nv, dy + (size_t)at * nv, sizeof(double) * (size_t)nv);
        memcpy(acc + (size_t)i * nv, ddy + (size_t)at * nv, sizeof(double) * (size_t)nv);
    }
    return HES_OK;
}

/*
 * Sampled velocities and accelerations made consistent with the stance.
 * The derivatives of sampled configurations are accurate to O(h^2) only,
 * so a stance foot that does not move in the motion moves in them (1e-4
 * m/s at 400 Hz); the contact model asks for that velocity to vanish
 * within dt (the offsets b = J v / dt + ...), 0.1 m/s^2 at dt = 1e-3, and
 * the no-slip equalities then turn sampling error into slides, switching
 * stances and jumping forces.  Each node's (v, a) is replaced by the
 * nearest pair, in the kinetic metric, that keeps its stance contacts
 * where they are (all their rows: normal and tangential):
 *     v' = v - W J^T (J W J^T)^+ J v,           W = M^-1,
 *     a' = a - W J^T (J W J^T)^+ (J a + J' v'),
 * the M-orthogonal projections onto {J v = 0} and {J a + J' v = 0} (the
 * acceleration of a point that stays put).  The pseudo-inverse drops
 * eigenvalues of J W J^T below 1e-12 of its largest (redundant contacts).
 * A motion that keeps its stance to begin with moves only by its
 * sampling error.
 */
static hes_status stance_consistent(hes_robot *robot, int nodes, const double *q,
                                    const int *stance, double stance_tol, double *vel,
                                    double *acc, char *msg, size_t len)
{
    hes_robot_dynamics d;
    int nv = hes_robot_mech(robot)->d, nq = hes_mech_nq(hes_robot_mech(robot));
    hes_error e;
    hes_status st = hes__err_pass(hes_robot_dynamics_at(robot, q, vel, &d, &e), &e, msg, len);
    if (st != HES_OK)
        return st;
    int nc = d.nc, rows = nc * (1 + d.tangents);
    size_t V = (size_t)nv, R = (size_t)(rows > 0 ? rows : 1);
    double *L = malloc(sizeof(double) * (V * V + 2 * R * V + R * R + 3 * R + V));
    int *sel = malloc(sizeof(int) * R);
    if (!L || !sel) {
        free(L), free(sel);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    double *Js = L + V * V, *WJt = Js + R * V, *A = WJt + R * V, *ev = A + R * R, *r = ev + R,
           *y = r + R, *dv = y + R;
    for (int n = 0; n < nodes && st == HES_OK; n++) {
        const double *qn = q + (size_t)n * nq;
        double *vn = vel + (size_t)n * nv, *an = acc + (size_t)n * nv;
        for (int pass = 0; pass < 2 && st == HES_OK; pass++) {
            /* pass 0: v at the sampled v; pass 1: a, with J' v at v' */
            if ((st = hes__err_pass(hes_robot_dynamics_at(robot, qn, vn, &d, &e), &e, msg,
                                    len)) != HES_OK)
                break;
            int m = 0;
            for (int dir = 0; dir <= d.tangents; dir++)
                for (int c = 0; c < nc; c++)
                    if (stance ? stance[(size_t)n * nc + c] != 0 : d.phi[c] <= stance_tol)
                        sel[m++] = dir * nc + c;
            if (m == 0)
                break;
            for (int a = 0; a < m; a++)
                for (int j = 0; j < nv; j++)
                    Js[a + (size_t)j * m] = d.J[sel[a] + (size_t)j * rows];
            /* W J^T by the Cholesky factor of M */
            memcpy(L, d.M, sizeof(double) * V * V);
            for (int a = 0; a < m; a++)
                for (int j = 0; j < nv; j++)
                    WJt[j + (size_t)a * nv] = Js[a + (size_t)j * m];
            if (hes__chol(L, nv) != 0) {
                st = hes__say(msg, len, HES_EINVAL, "node %d: the mass matrix is not positive "
                              "definite", n);
                break;
            }
            hes__chol_solve(L, nv, WJt, m);
            for (int a = 0; a < m; a++)
                for (int b = 0; b < m; b++) {
                    double t = 0;
                    for (int j = 0; j < nv; j++)
                        t += Js[a + (size_t)j * m] * WJt[j + (size_t)b * nv];
                    A[a + (size_t)b * m] = t;
                }
            for (int a = 0; a < m; a++) {
                double t = pass ? d.Jdv[sel[a]] : 0;
                const double *x = pass ? an : vn;
                for (int j = 0; j < nv; j++)
                    t += Js[a + (size_t)j * m] * x[j];
                r[a] = t;
            }
            if (hes__sym_eig(m, A, ev) != 0) {
                st = hes__say(msg, len, HES_ESOLVER, "node %d: eigenvalues failed", n);
                break;
            }
            /* y = (J W J^T)^+ r */
            for (int a = 0; a < m; a++)
                y[a] = 0;
            for (int k = 0; k < m; k++) {
                if (!(ev[k] > 1e-12 * ev[m - 1]))
                    continue;
                double t = 0;
                for (int a = 0; a < m; a++)
                    t += A[a + (size_t)k * m] * r[a];
                for (int a = 0; a < m; a++)
                    y[a] += A[a + (size_t)k * m] * t / ev[k];
            }
            double *x = pass ? an : vn;
            for (int j = 0; j < nv; j++) {
                double t = 0;
                for (int a = 0; a < m; a++)
                    t += WJt[j + (size_t)a * nv] * y[a];
                dv[j] = t;
            }
            for (int j = 0; j < nv; j++)
                x[j] -= dv[j];
        }
    }
    free(L), free(sel);
    return st;
}

hes_status hes_invdyn_trajectory(hes_robot *robot, int nodes, const double *t, const double *q,
                                 const double *v, const double *a, const int *stance,
                                 const hes_invdyn_run_options *opts, hes_invdyn_run *out,
                                 hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!robot || !t || !q || !out || nodes < 1)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: needs a robot, times and "
                        "configurations");
    memset(out, 0, sizeof *out);
    hes_invdyn_run_options o = opts ? *opts : (hes_invdyn_run_options){ 0 };
    if (!opts)
        o.solve = (hes_invdyn_options){ .method = HES_INVDYN_NO_SLIP, .stage2 = 1 };
    if (o.dt <= 0)
        o.dt = 1e-3;
    if (o.stance_tol <= 0)
        o.stance_tol = 1e-4;
    hes_robot_dynamics d;
    double *vel = NULL, *acc = NULL;
    const hes_mech *mech = hes_robot_mech(robot);
    int d0 = mech->d, nq = hes_mech_nq(mech);
    double *zero = calloc((size_t)d0, sizeof(double));
    if (!zero)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    hes_status st = hes_robot_dynamics_at(robot, q, zero, &d, err);   /* the sizes */
    free(zero);
    if (st != HES_OK)
        return st;
    int nv = d.nv, nu = d.nu, nc = d.nc, tg = d.tangents, rows = nc * (1 + tg);
    if (nu < 1)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the robot has no motors (name "
                        "its driven joints: hes_robot_set_motors, hes invdyn --motors)");
    if (nu > nv)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: %d motors for %d coordinates "
                        "(their input matrix must have full column rank)", nu, nv);
    if (nc > 16)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: at most 16 contacts");
    if ((!v || !a) && nodes < 3)
        return hes__say(msg, len, HES_EINVAL, "inverse dynamics: velocities and accelerations "
                        "from the samples need at least 3 nodes");
    if (!v || !a) {
        vel = malloc(sizeof(double) * (size_t)nodes * (size_t)nv);
        acc = malloc(sizeof(double) * (size_t)nodes * (size_t)nv);
        double *work = malloc(sizeof(double) * 9 * (size_t)nv);
        if (!vel || !acc || !work) {
            free(vel), free(acc), free(work);
            return hes__say(msg, len, HES_ENOMEM, "out of memory");
        }
        st = sampled_motion(mech, nodes, t, q, vel, acc, work);
        free(work);
        if (st != HES_OK) {
            free(vel), free(acc);
            return hes__say(msg, len, HES_EINVAL, "inverse dynamics: the times must increase");
        }
        if (v)
            memcpy(vel, v, sizeof(double) * (size_t)nodes * (size_t)nv);
        if (a)
            memcpy(acc, a, sizeof(double) * (size_t)nodes * (size_t)nv);
        st = stance_consistent(robot, nodes, q, stance, o.stance_tol, vel, acc, msg, len);
        if (st != HES_OK) {
            free(vel), free(acc);
            return st;
        }
    }
    const double *V = v ? v : vel, *A = a ? a : acc;
    size_t N = (size_t)nodes;
    out->nodes = nodes, out->nv = nv, out->nu = nu, out->nc = nc, out->tangents = tg;
    out->t = malloc(sizeof(double) * N);
    out->status = calloc(N, sizeof(hes_status));
    out->message = calloc(N, sizeof *out->message);
    out->stance = calloc(N * (size_t)(nc > 0 ? nc : 1), sizeof(int));
    out->tau = calloc(N * (size_t)nu, sizeof(double));
    out->f = calloc(N * (size_t)(rows > 0 ? rows : 1), sizeof(double));
    out->ratio = calloc(N * (size_t)(nc > 0 ? nc : 1), sizeof(double));
    out->mu_min = malloc(sizeof(double) * N);
    out->slip = calloc(N, sizeof(double));
    size_t nsets = (size_t)1 << nc;
    hes_invdyn **ws = calloc(nsets, sizeof *ws);
    double *J = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1) * (size_t)nv);
    double *b = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1));
    double *mu = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
    int *act = calloc((size_t)(nc > 0 ? nc : 1), sizeof(int));
    if (!out->t || !out->status || !out->message || !out->stance || !out->tau || !out->f ||
        !out->ratio || !out->mu_min || !out->slip || !ws || !J || !b || !mu || !act) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
        goto done;
    }
    out->worst = -1;
    for (int n = 0; n < nodes; n++) {
        const double *qn = q + (size_t)n * nq, *vn = V + (size_t)n * nv, *an = A + (size_t)n * nv;
        out->t[n] = t[n];
        out->mu_min[n] = -1;
        hes_error m2 = {""};
        hes_status sn = hes_robot_dynamics_at(robot, qn, vn, &d, &m2);
        unsigned set = 0;
        int k = 0;
        for (int c = 0; sn == HES_OK && c < nc; c++) {
            act[c] = stance ? stance[(size_t)n * nc + c] != 0 : d.phi[c] <= o.stance_tol;
            out->stance[(size_t)n * nc + c] = act[c];
            if (act[c])
                set |= 1u << c, k++;
        }
        hes_invdyn_result res;
        memset(&res, 0, sizeof res);
        res.contact = -1;
        if (sn == HES_OK && !ws[set] && hes_invdyn_new(nv, nu, k, tg, &ws[set], NULL) != HES_OK) {
            st = hes__say(msg, len, HES_ENOMEM, "out of memory");
            goto done;
        }
        if (sn == HES_OK) {
            hes_invdyn_problem pb;
            hes_invdyn_problem_robot(&d, act, vn, an, o.dt, !o.no_drift, J, b, mu, &pb);
            sn = hes_invdyn_solve(ws[set], &pb, &o.solve, &res, &m2);
        }
        out->status[n] = sn;
        if (sn != HES_OK) {
            out->failed++;
            /* the solver numbers the node's stance contacts; the robot names them */
            int named = -1;
            if (sn == HES_EINFEASIBLE && res.contact >= 0)
                for (int c = 0, i = 0; c < nc && named < 0; c++)
                    if (act[c] && i++ == res.contact)
                        named = c;
            const char *name = named >= 0 ? hes_robot_contact_name(robot, named) : NULL;
            if (name)
                snprintf(out->message[n], sizeof out->message[n], "%s (contact %d of this "
                         "node's stance is %s)", m2.message, res.contact, name);
            else
                snprintf(out->message[n], sizeof out->message[n], "%s", m2.message);
        }
        if ((sn != HES_OK && sn != HES_EINFEASIBLE) || !res.tau)
            continue;
        /* the result, spread over all of the robot's contacts */
        memcpy(out->tau + (size_t)n * nu, res.tau, sizeof(double) * (size_t)nu);
        for (int c = 0, i = 0; c < nc; c++) {
            if (!act[c])
                continue;
            for (int dd = 0; dd <= tg; dd++)
                out->f[(size_t)n * rows + dd * nc + c] = res.f[dd * k + i];
            out->ratio[(size_t)n * nc + c] = res.ratio[i];
            i++;
        }
        out->slip[n] = res.slip;
        out->mu_min[n] = res.mu_min;
        /* the motion's friction need, where its contacts hold (a node whose
           stance contacts slide has no forces that produce it) */
        double need = res.mu_min >= 0 ? res.mu_min : res.mu_needed;
        double tol_eom = o.solve.tol_eom != 0 ? o.solve.tol_eom : 1e-6;
        if (res.slip != 0 || (tol_eom >= 0 && res.eom > tol_eom))
            continue;
        out->counted++;
        if (out->worst < 0 || need > out->mu_required)
            out->mu_required = need, out->worst = n;
    }
    st = HES_OK;
done:
    for (size_t s = 0; ws && s < nsets; s++)
        hes_invdyn_destroy(ws[s]);
    free(ws), free(J), free(b), free(mu), free(act), free(vel), free(acc);
    if (st != HES_OK)
        hes_invdyn_run_free(out);
    return st;
}
