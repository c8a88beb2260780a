/*
 * box_wall.c - the paper's box and wall (Halm & Posa, set-valued simultaneous impacts, Fig. 5,
 * Sec. 5.4.3, Table 6; the authors'
 * Results.m, BoxWall): a uniform unit box, mass 1, friction 1, tilted so
 * that its side meets a wall at 10 degrees, sliding at 1 m/s along the
 * floor into the wall.
 *
 * q = (x, y, theta) with theta = 90 - 10 degrees; M = diag(1, 1, 1/6).
 * Contacts: A, the corner (-1/2, -1/2) on the floor (the lowest at this
 * angle: sliding, u_n = 0), and B, the corner (1/2, -1/2) against the
 * wall x = 0 (the rightmost: hitting it at 1 m/s).  The box is placed so
 * that both touch.  Anitescu-Potra brings the box to rest; sequential
 * resolution has A sliding on and B lifting off; the set holds both
 * (Fig. 11).  The authors' outcome-set parameters: h = 2, N = 5 (their
 * set: 2^18 samples).
 */
#include <math.h>

#include "problems.h"

#define SIDE 1.0
#define MASS 1.0
#define MU 1.0
#define V0 1.0
#define THETA (M_PI / 2 - 10 * M_PI / 180)

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    for (int i = 0; i < 9; i++)
        out[i] = 0;
    out[0] = out[4] = MASS;
    out[8] = MASS * SIDE * SIDE / 6;
    return 0;
}

HES__BODY_CONTACT(A, hes__floor_contact, -SIDE / 2, -SIDE / 2)
HES__BODY_CONTACT(B, hes__wall_contact, SIDE / 2, -SIDE / 2)

static const hes_mech_constraint constraints[] = {
    { "A", a_A, Da_A, 0, 1, MU, Jt_A, NULL, NULL, 0, 0, NULL },
    { "B", a_B, Da_B, 0, 1, MU, Jt_B, NULL, NULL, 0, 0, NULL },
};

static const hes_mech mech = {
    .name = "box-wall", .d = 3, .mass = mass, .n_constraints = 2, .constraints = constraints,
};

static int pre_impact(double *q, double *v, void *data)
{
    (void)data;
    double pa[2], pb[2];
    q[0] = q[1] = 0;
    q[2] = THETA;
    hes__planar_point(q, 0, -SIDE / 2, -SIDE / 2, pa, NULL, NULL);
    hes__planar_point(q, 0, SIDE / 2, -SIDE / 2, pb, NULL, NULL);
    q[0] = -pb[0];      /* B on the wall x = 0 */
    q[1] = -pa[1];      /* A on the floor */
    v[0] = V0;
    v[1] = v[2] = 0;
    return 0;
}

static const int contacts[] = { 0, 1 };

const hes_impact_problem hes__impact_problem_box_wall = {
    "box-wall",
    "a unit box (mass 1, friction 1) sliding at 1 m/s along the floor into a wall at 10 "
    "degrees (Halm & Posa Sec. 5.4.3)",
    &mech, 2, contacts, pre_impact, 2.0, 5, 4096,
};
