/*
 * disk_stack.c - the paper's disk stacking (Halm & Posa, set-valued simultaneous impacts, Fig.
 * 14, Sec. 5.4.5, Table 8; the authors'
 * Results.m, BallStack): three uniform disks of radius 1, friction sqrt(3)
 * everywhere, two resting on the floor side by side (touching) and the
 * third dropped at 1 m/s onto both: five simultaneous contacts.
 *
 * q = (x_0, y_0, theta_0, x_1, y_1, theta_1, x_2, y_2, theta_2): disk 0 on
 * top at (1, 1 + sqrt 3), disks 1 and 2 at (0, 1) and (2, 1); M =
 * diag(m, m, m R^2 / 2) per disk.  Contacts: 0 and 1, disks 1 and 2 on the
 * floor (J_t: x' + R theta'); 2 and 3, disk 0 on disks 1 and 2; 4, disk 2
 * on disk 1.  Disk i on disk j with unit normal n = (p_i - p_j) / |p_i -
 * p_j| and tangent t = (-n_y, n_x): a = |p_i - p_j| - 2R, J_n = n^T (v_i -
 * v_j), J_t = t^T (v_i - v_j) - R (theta_i' + theta_j').  Anitescu-Potra
 * brings the tower to rest; the set has it fall apart (Fig. 14).
 *
 * The authors' code gives every disk mass 5 (the variable m is reused for
 * the contact count before the disks are made) with h = 1; outcomes
 * scale with neither, and the number of steps depends on h / m, so mass 1
 * with h = 0.2 runs their computation (N = 10; their set: 2^20 samples).
 */
#include <math.h>

#include "problems.h"

#define R 1.0
#define MASS 1.0
#define MU 1.7320508075688772
#define V0 1.0

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    for (int i = 0; i < 81; i++)
        out[i] = 0;
    for (int b = 0; b < 3; b++) {
        int c = 3 * b;
        out[c + 9 * c] = out[(c + 1) + 9 * (c + 1)] = MASS;
        out[(c + 2) + 9 * (c + 2)] = MASS * R * R / 2;
    }
    return 0;
}

/* disk i on the floor */
static int floor_disk(const double *q, int i, double *a, double *Da, double *Jt)
{
    int c = 3 * i;
    if (a)
        *a = q[c + 1] - R;
    for (int j = 0; j < 9; j++) {
        if (Da)
            Da[j] = j == c + 1;
        if (Jt)
            Jt[j] = j == c ? 1 : j == c + 2 ? R : 0;
    }
    return 0;
}

/* disk i on disk j */
static int disk_disk(const double *q, int i, int j, double *a, double *Da, double *Jt)
{
    int ci = 3 * i, cj = 3 * j;
    double dx = q[ci] - q[cj], dy = q[ci + 1] - q[cj + 1], r = hypot(dx, dy);
    if (!(r > 0))
        return 1;
    double nx = dx / r, ny = dy / r, tx = -ny, ty = nx;
    if (a)
        *a = r - 2 * R;
    for (int k = 0; k < 9; k++) {
        if (Da)
            Da[k] = 0;
        if (Jt)
            Jt[k] = 0;
    }
    if (Da) {
        Da[ci] = nx, Da[ci + 1] = ny;
        Da[cj] = -nx, Da[cj + 1] = -ny;
    }
    if (Jt) {
        Jt[ci] = tx, Jt[ci + 1] = ty, Jt[ci + 2] = -R;
        Jt[cj] = -tx, Jt[cj + 1] = -ty, Jt[cj + 2] = -R;
    }
    return 0;
}

/* the five contacts: which disks */
static int contact(int c, const double *q, double *a, double *Da, double *Jt)
{
    switch (c) {
    case 0: return floor_disk(q, 1, a, Da, Jt);
    case 1: return floor_disk(q, 2, a, Da, Jt);
    case 2: return disk_disk(q, 0, 1, a, Da, Jt);
    case 3: return disk_disk(q, 0, 2, a, Da, Jt);
    default: return disk_disk(q, 2, 1, a, Da, Jt);
    }
}

#define CONTACT(c)                                                                  \
    static int a_##c(const double *q, const double *p, double *out, void *data)    \
    {                                                                               \
        (void)p, (void)data;                                                        \
        return contact(c, q, out, NULL, NULL);                                      \
    }                                                                               \
    static int Da_##c(const double *q, const double *p, double *out, void *data)   \
    {                                                                               \
        (void)p, (void)data;                                                        \
        return contact(c, q, NULL, out, NULL);                                      \
    }                                                                               \
    static int Jt_##c(const double *q, const double *p, double *out, void *data)   \
    {                                                                               \
        (void)p, (void)data;                                                        \
        return contact(c, q, NULL, NULL, out);                                      \
    }
CONTACT(0)
CONTACT(1)
CONTACT(2)
CONTACT(3)
CONTACT(4)

static const hes_mech_constraint constraints[] = {
    { "floor-1", a_0, Da_0, 0, 1, MU, Jt_0, NULL, NULL, 0, 0, NULL },
    { "floor-2", a_1, Da_1, 0, 1, MU, Jt_1, NULL, NULL, 0, 0, NULL },
    { "top-1", a_2, Da_2, 0, 1, MU, Jt_2, NULL, NULL, 0, 0, NULL },
    { "top-2", a_3, Da_3, 0, 1, MU, Jt_3, NULL, NULL, 0, 0, NULL },
    { "2-1", a_4, Da_4, 0, 1, MU, Jt_4, NULL, NULL, 0, 0, NULL },
};

static const hes_mech mech = {
    .name = "disk-stack", .d = 9, .mass = mass, .n_constraints = 5, .constraints = constraints,
};

static int pre_impact(double *q, double *v, void *data)
{
    (void)data;
    const double q0[9] = { R, R + 2 * R * sin(M_PI / 3), 0, 0, R, 0, 2 * R, R, 0 };
    for (int i = 0; i < 9; i++) {
        q[i] = q0[i];
        v[i] = 0;
    }
    v[1] = -V0;
    return 0;
}

static const int contacts[] = { 0, 1, 2, 3, 4 };

const hes_impact_problem hes__impact_problem_disk_stack = {
    "disk-stack",
    "three disks (radius 1, mass 1, friction sqrt 3): the top one dropped at 1 m/s onto the "
    "two below, which rest on the floor touching (Halm & Posa Sec. 5.4.5)",
    &mech, 5, contacts, pre_impact, 0.2, 10, 4096,
};
