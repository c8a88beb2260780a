/*
 * rocking_block.c - the paper's rocking block (Halm & Posa, set-valued simultaneous impacts,
 * Fig. 1, Sec. 5.4.1, Table 4; the authors'
 * Phone.m with PhoneParameters.m): a uniform 1 x 2 block (width x height),
 * mass 1, friction 1 at both bottom corners, dropped flat from 0.01 m, so
 * that it lands on both corners at once at v0 = sqrt(2 g 0.01) = 0.443 m/s.
 *
 * q = (x, y, theta) of the centre; M = diag(m, m, m (w^2 + h^2) / 12).
 * Contacts: A, the left bottom corner (-w/2, -h/2); B, the right one
 * (w/2, -h/2), both against the floor.  Anitescu-Potra brings the block to
 * rest; the two sequential orders pivot it on either corner; the set holds
 * both and the partial pivots between (Fig. 9).  Outcome-set parameters as
 * the authors': h = ceil(10 m v0 / 2) / 10 = 0.3, N = 10 (their set: 2^14
 * samples).
 */
#include <math.h>

#include "problems.h"

#define W 1.0
#define H 2.0
#define MASS 1.0
#define MU 1.0
#define G 9.81
#define DROP 0.01

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    for (int i = 0; i < 9; i++)
        out[i] = 0;
    out[0] = out[4] = MASS;
    out[8] = MASS * (W * W + H * H) / 12;
    return 0;
}

HES__BODY_CONTACT(A, hes__floor_contact, -W / 2, -H / 2)
HES__BODY_CONTACT(B, hes__floor_contact, W / 2, -H / 2)

static const hes_mech_constraint constraints[] = {
    { "A", a_A, Da_A, 0, 1, MU, Jt_A, NULL, NULL, 0, 0, NULL },
    { "B", a_B, Da_B, 0, 1, MU, Jt_B, NULL, NULL, 0, 0, NULL },
};

static const hes_mech mech = {
    .name = "rocking-block", .d = 3, .mass = mass, .n_constraints = 2, .constraints = constraints,
};

static int pre_impact(double *q, double *v, void *data)
{
    (void)data;
    q[0] = 0;
    q[1] = H / 2;
    q[2] = 0;
    v[0] = 0;
    v[1] = -sqrt(2 * G * DROP);
    v[2] = 0;
    return 0;
}

static const int contacts[] = { 0, 1 };

const hes_impact_problem hes__impact_problem_rocking_block = {
    "rocking-block",
    "a 1 x 2 block (mass 1, friction 1) dropped flat from 0.01 m onto both bottom corners "
    "(Halm & Posa Sec. 5.4.1)",
    &mech, 2, contacts, pre_impact, 0.3, 10, 4096,
};
