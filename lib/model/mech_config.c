/*
 * mech_config.c - the configuration manifold of a mechanical system whose
 * coordinates include unit quaternions (hes_mech.quat: ball and free
 * joints), and the maps between coordinates q (nq values) and velocities
 * v (d values) that every layer uses.
 *
 * A quaternion block q = (w, x, y, z) with body-frame angular velocity
 * omega moves as q' = 1/2 q (x) (0, omega) (Hamilton product; MuJoCo's
 * convention for ball and free joints).  Its exponential chart,
 *     q (+) v = q (x) exp(v / 2),  exp(w / 2) = (cos |w|/2, sin(|w|/2) w/|w|),
 *     q1 (-) q0 = 2 log(q0^* (x) q1),
 * is the exact flow of a constant body-frame angular velocity over unit
 * time, and its inverse (the shorter rotation: q and -q are one
 * orientation).  At v = 0 its derivative is G = d(q (+) v)/dv, the
 * columns 1/2 q (x) (0, e_i); d(y (-) q)/dy at y = q is P = 2 Im(q^* (x) .),
 * so P G = I for a unit q, and P's rows are orthogonal to q itself: a
 * function of q / |q| has, in the coordinates, the derivative along
 * velocities times P.  Every other coordinate is its own velocity.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "model/model_internal.h"

/* out = a (x) b (Hamilton product; out may not alias a or b) */
static void quat_mul(const double *a, const double *b, double *out)
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

/* exp(w / 2) for a rotation vector w */
static void quat_exp(const double *w, double *out)
{
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    /* sin(th/2)/th, by its series where the quotient loses digits */
    double s = th < 1e-4 ? 0.5 - th * th / 48 : sin(0.5 * th) / th;
    out[0] = cos(0.5 * th);
    out[1] = s * w[0], out[2] = s * w[1], out[3] = s * w[2];
}

/* 2 log(u) for a unit quaternion u, the shorter way round */
static void quat_log2(const double *u, double *w)
{
    double sgn = u[0] < 0 ? -1 : 1;
    double c = sgn * u[0], v = sqrt(u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
    double th = 2 * atan2(v, c);
    /* th / sin(th/2), by its series near 0 */
    double f = v < 1e-8 ? 2 / (c > 0 ? c : 1) : th / v;
    for (int i = 0; i < 3; i++)
        w[i] = sgn * f * u[i + 1];
}

int hes_mech_nq(const hes_mech *m)
{
    return m->d + (m->quat ? m->n_quat : 0);
}

/* Whether the j-th quaternion of m starts at coordinate iq.  Each function
 * below walks q's coordinates with iq, the quaternions passed with j:
 * the velocity of coordinate iq (or of the quaternion there) is iq - j. */
static int at_quat(const hes_mech *m, int j, int iq)
{
    return m->quat && j < m->n_quat && m->quat[j] == iq;
}

void hes_mech_qdot(const hes_mech *m, const double *q, const double *v, double *qd)
{
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            const double w[4] = { 0, 0.5 * v[iv], 0.5 * v[iv + 1], 0.5 * v[iv + 2] };
            quat_mul(q + iq, w, qd + iq);
            iq += 4, j++;
        } else {
            qd[iq] = v[iv];
            iq++;
        }
    }
}

void hes_mech_integrate(const hes_mech *m, const double *q, const double *v, double h,
                        double *out)
{
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            const double w[3] = { h * v[iv], h * v[iv + 1], h * v[iv + 2] };
            double e[4], r[4], qn[4];
            memcpy(qn, q + iq, sizeof qn);
            quat_exp(w, e);
            quat_mul(qn, e, r);
            double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
            for (int i = 0; i < 4; i++)
                out[iq + i] = r[i] / n;
            iq += 4, j++;
        } else {
            out[iq] = q[iq] + h * v[iv];
            iq++;
        }
    }
}

void hes_mech_difference(const hes_mech *m, const double *q1, const double *q0, double *v)
{
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            const double *a = q0 + iq, *b = q1 + iq;
            double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
            double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
            const double ac[4] = { a[0] / na, -a[1] / na, -a[2] / na, -a[3] / na };
            const double bn[4] = { b[0] / nb, b[1] / nb, b[2] / nb, b[3] / nb };
            double u[4];
            quat_mul(ac, bn, u);
            quat_log2(u, v + iv);
            iq += 4, j++;
        } else {
            v[iv] = q1[iq] - q0[iq];
            iq++;
        }
    }
}

void hes_mech_qdot_dv(const hes_mech *m, const double *q, double *G)
{
    int nq = hes_mech_nq(m), d = m->d;
    memset(G, 0, sizeof(double) * (size_t)nq * (size_t)d);
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            for (int c = 0; c < 3; c++) {
                double e[4] = { 0, 0, 0, 0 }, col[4];
                e[c + 1] = 0.5;
                quat_mul(q + iq, e, col);
                for (int i = 0; i < 4; i++)
                    G[iq + i + (size_t)(iv + c) * nq] = col[i];
            }
            iq += 4, j++;
        } else {
            G[iq + (size_t)iv * nq] = 1;
            iq++;
        }
    }
}

void hes_mech_qdot_dq(const hes_mech *m, const double *v, double *out)
{
    int nq = hes_mech_nq(m);
    memset(out, 0, sizeof(double) * (size_t)nq * (size_t)nq);
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            /* q (x) w is linear in q: column i is e_i (x) w */
            const double w[4] = { 0, 0.5 * v[iv], 0.5 * v[iv + 1], 0.5 * v[iv + 2] };
            for (int c = 0; c < 4; c++) {
                double e[4] = { 0, 0, 0, 0 }, col[4];
                e[c] = 1;
                quat_mul(e, w, col);
                for (int i = 0; i < 4; i++)
                    out[iq + i + (size_t)(iq + c) * nq] = col[i];
            }
            iq += 4, j++;
        } else {
            iq++;
        }
    }
}

void hes_mech_difference_dq(const hes_mech *m, const double *q, double *P)
{
    int nq = hes_mech_nq(m), d = m->d;
    memset(P, 0, sizeof(double) * (size_t)d * (size_t)nq);
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        int iv = iq - j;
        if (at_quat(m, j, iq)) {
            const double *a = q + iq;
            double n2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
            const double ac[4] = { a[0] / n2, -a[1] / n2, -a[2] / n2, -a[3] / n2 };
            /* column c: 2 Im(q^* (x) e_c), with q^* / |q|^2 so that P G = I off the sphere too */
            for (int c = 0; c < 4; c++) {
                double e[4] = { 0, 0, 0, 0 }, col[4];
                e[c] = 1;
                quat_mul(ac, e, col);
                for (int i = 0; i < 3; i++)
                    P[iv + i + (size_t)(iq + c) * d] = 2 * col[i + 1];
            }
            iq += 4, j++;
        } else {
            P[iv + (size_t)iq * d] = 1;
            iq++;
        }
    }
}

void hes_mech_normalize(const hes_mech *m, double *q)
{
    for (int iq = 0, j = 0, nq_ = hes_mech_nq(m); iq < nq_;) {
        if (at_quat(m, j, iq)) {
            double *a = q + iq;
            double n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
            if (n > 0)
                for (int i = 0; i < 4; i++)
                    a[i] /= n;
            iq += 4, j++;
        } else {
            iq++;
        }
    }
}

void hes__mech_quat_pull(const hes_mech *m, const double *q, double *qd, double *J, int ld)
{
    for (int iq = 0, j = 0, nq = hes_mech_nq(m); iq < nq;) {
        if (!at_quat(m, j, iq)) {
            iq++;
            continue;
        }
        const double *a = q + iq;
        double s = 1 - (a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        for (int i = 0; i < 4; i++)
            qd[iq + i] += HES__QUAT_PULL * s * a[i];
        for (int c = 0; J && c < 4; c++)
            for (int i = 0; i < 4; i++)
                J[iq + i + (size_t)(iq + c) * ld] +=
                    HES__QUAT_PULL * ((i == c) * s - 2 * a[i] * a[c]);
        iq += 4, j++;
    }
}
