/*
 * planar_body.c - a point fixed on a planar rigid body with configuration
 * (x, y, theta) (columns col..col+2 of a larger configuration): its world
 * position p = (x, y) + R(theta) c and velocity Jacobian
 *     Dp = [ 1  0  -c_x sin - c_y cos ]
 *          [ 0  1   c_x cos - c_y sin ],
 * from which the impact problems build their contacts: against the floor
 * (normal +y: a = p_y, J_n = Dp_y, J_t = Dp_x) and against a wall at x = 0
 * on the body's right (normal -x: a = -p_x, J_n = -Dp_x, J_t = Dp_y).
 */
#include <math.h>

#include "problems.h"

void hes__planar_point(const double *q, int col, double cx, double cy, double *p, double *jx,
                       double *jy)
{
    double c = cos(q[col + 2]), s = sin(q[col + 2]);
    if (p) {
        p[0] = q[col] + cx * c - cy * s;
        p[1] = q[col + 1] + cx * s + cy * c;
    }
    if (jx) {
        jx[col] = 1;
        jx[col + 1] = 0;
        jx[col + 2] = -cx * s - cy * c;
    }
    if (jy) {
        jy[col] = 0;
        jy[col + 1] = 1;
        jy[col + 2] = cx * c - cy * s;
    }
}

/* contact of the point with the floor (wall = 0: a = p_y, J_n = Dp_y,
 * J_t = Dp_x) or with the wall (wall = 1: a = -p_x, J_n = -Dp_x, J_t =
 * Dp_y), rows of d zeros with the body's three columns filled */
static int contact(const double *q, int d, int col, double cx, double cy, int wall, double *a,
                   double *Da, double *Jt)
{
    double p[2], jx[3], jy[3];   /* the body's three columns */
    hes__planar_point(q + col, 0, cx, cy, p, jx, jy);
    const double *n = wall ? jx : jy, *t = wall ? jy : jx, sg = wall ? -1 : 1;
    if (a)
        *a = wall ? -p[0] : p[1];
    for (int j = 0; j < d; j++) {
        int in = j >= col && j < col + 3;
        if (Da)
            Da[j] = sg * (in ? n[j - col] : 0.0);
        if (Jt)
            Jt[j] = in ? t[j - col] : 0.0;
    }
    return 0;
}

int hes__floor_contact(const double *q, int d, int col, double cx, double cy, double *a,
                       double *Da, double *Jt)
{
    return contact(q, d, col, cx, cy, 0, a, Da, Jt);
}

int hes__wall_contact(const double *q, int d, int col, double cx, double cy, double *a,
                      double *Da, double *Jt)
{
    return contact(q, d, col, cx, cy, 1, a, Da, Jt);
}
