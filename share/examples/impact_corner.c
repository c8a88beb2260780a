/*
 * impact_corner.c - a simultaneous impact of your own, written from the
 * README: a unit point mass (a small ball, q = (x, y)) thrown into a corner
 * made by the floor and a wall leaning at an angle beta from the floor, so
 * that it touches both at once.  Contacts: the floor (normal (0, 1)) and the
 * wall (normal (-sin beta, cos beta) rotated to point into the free side),
 * with friction mu.
 *
 * Checks against closed forms:
 *   - beta = 90 degrees, no friction: the two normals are orthogonal in
 *     the metric M^-1, so the contacts are decoupled and every order of
 *     impulses gives the same outcome (the paper's decoupled case): v+ has
 *     both normal components removed, v+ = 0 for a ball moving into both
 *     walls; the whole sampled set is that one point;
 *   - beta = 60 degrees (a corner of 120 degrees), no friction: coupled,
 *     the set spreads between the two sequential outcomes, each of which
 *     removes one normal velocity and then the other (closed form by
 *     projections); both lie in the sampled set;
 *   - the same with friction 0.5: no sample gains energy.
 *
 *   cc impact_corner.c $(pkg-config --cflags --libs hes) -lm && ./a.out
 */
#include <math.h>
#include <stdio.h>

#include <hes.h>

typedef struct {
    double beta;   /* the wall's angle from the floor */
} corner;

static int mass(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    out[0] = out[3] = 1;
    out[1] = out[2] = 0;
    return 0;
}

/* floor: a = y, J_n = (0, 1), J_t = (1, 0) */
static int floor_a(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    out[0] = q[1];
    return 0;
}
static int floor_Jt(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    out[0] = 1;
    out[1] = 0;
    return 0;
}

/* the wall through the origin at angle beta, the free side to its left:
 * a = n . q with n = (-sin beta, cos beta) pointing into the free side...
 * for beta = 90 degrees n = (-1, 0): the wall x = 0 with the ball at x < 0 */
static int wall_a(const double *q, const double *p, double *out, void *data)
{
    (void)p;
    const corner *c = data;
    out[0] = -sin(c->beta) * q[0] + cos(c->beta) * q[1];
    return 0;
}
static int wall_Jt(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p;
    const corner *c = data;
    out[0] = cos(c->beta);
    out[1] = sin(c->beta);
    return 0;
}

static int run(double beta_deg, double mu, int *failures)
{
    corner c = { beta_deg * M_PI / 180 };
    const hes_mech_constraint cons[2] = {
        { "floor", floor_a, NULL, 0, 1, mu, floor_Jt, NULL, NULL, 0, 0, NULL },
        { "wall", wall_a, NULL, 0, 1, mu, wall_Jt, NULL, NULL, 0, 0, NULL },
    };
    const hes_mech mech = { "corner", 2, mass, NULL, NULL, 0, 2, cons, &c, NULL, NULL, NULL, 0, NULL };
    const int idx[2] = { 0, 1 };
    double q[2] = { 0, 0 }, M[4], Jn[4], Jt[4], m[2], v[2];
    hes_error msg;
    if (hes_mech_contacts(&mech, q, NULL, 2, idx, M, Jn, Jt, m, &msg) != HES_OK) {
        printf("%s\n", msg.message);
        return 1;
    }
    /* thrown into the corner along its bisector (at 90 + beta / 2 degrees) */
    v[0] = sin(c.beta / 2);
    v[1] = -cos(c.beta / 2);
    hes_contact_set cs = { 2, 2, M, Jn, Jt, m };
    /* h = 2, twice the impulse that stops the ball: the outcomes near a
       sequential one need a step in which one contact's cap is small, which
       one sample in 20 has; with h = 0.5 (four steps) the set's edges are
       reached far more slowly (15 % of the extent short at 2048 samples) */
    hes_impact_set_options o = { 8192, { 2, 20, 0, 0 }, 0, 1, 0, 0 };
    hes_impact_set S;
    if (hes_impact_set_sample(&cs, v, &o, &S, &msg) != HES_OK) {
        printf("%s\n", msg.message);
        return 1;
    }
    /* the two sequential outcomes: floor first, wall first */
    hes_impact_outcome seq[2] = { { .law = HES_LAW_SEQUENTIAL }, { .law = HES_LAW_SEQUENTIAL } };
    for (int j = 0; j < 2; j++) {
        hes_status st = hes_impact_outcome_init(&seq[j], HES_LAW_SEQUENTIAL, 2, 2);
        if (st == HES_OK) {
            seq[j].order[0] = j;
            seq[j].order[1] = 1 - j;
            st = hes_impact_outcome_compute(&cs, v, &S, &seq[j], &msg);
        }
        if (st != HES_OK) {
            printf("%s\n", st == HES_ENOMEM ? "out of memory" : msg.message);
            hes_impact_outcome_free(&seq[0]);
            hes_impact_outcome_free(&seq[1]);
            hes_impact_set_free(&S);
            return 1;
        }
    }
    double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (int i = 0; i < S.samples; i++)
        for (int d = 0; d < 2; d++) {
            lo[d] = fmin(lo[d], S.v[2 * i + d]);
            hi[d] = fmax(hi[d], S.v[2 * i + d]);
        }
    printf("corner at %g degrees, mu %g: %d of %d samples finished, %.2f LCPs each, "
           "energy gain <= %.2g\n", beta_deg, mu, S.n_finished, S.samples, S.mean_lcps,
           S.max_energy_gain);
    printf("  v+ spans x [%.6f, %.6f], y [%.6f, %.6f]\n", lo[0], hi[0], lo[1], hi[1]);
    for (int j = 0; j < 2; j++)
        printf("  sequential %s first: v+ = (%.6f, %.6f), %.3g of the set's extent from a "
               "sample\n", j ? "wall" : "floor", seq[j].v[0], seq[j].v[1], seq[j].relative);
    int bad = S.max_energy_gain > 1e-12 || S.n_finished != S.samples;
    if (beta_deg == 90 && mu == 0) {
        /* decoupled: one outcome, the ball at rest */
        bad |= fmax(fmax(fabs(lo[0]), fabs(hi[0])), fmax(fabs(lo[1]), fabs(hi[1]))) > 1e-9;
    } else if (mu == 0) {
        /* floor first, by hand: v_y -> 0, then the wall removes the normal
           component n . v of (v_x, 0), leaving it along the wall's tangent;
           then the floor again if that points down (it does not here) */
        double nx = -sin(c.beta), ny = cos(c.beta), w = nx * v[0];
        double vx = v[0] - w * nx, vy = -w * ny;
        bad |= fabs(seq[0].v[0] - vx) > 1e-12 || fabs(seq[0].v[1] - vy) > 1e-12;
        bad |= !(seq[0].relative < 0.05 && seq[1].relative < 0.05);
    }
    printf("  %s\n", bad ? "FAILED" : "as expected");
    *failures += bad;
    hes_impact_set_free(&S);
    hes_impact_outcome_free(&seq[0]);
    hes_impact_outcome_free(&seq[1]);
    return 0;
}

int main(void)
{
    int failures = 0;
    if (run(90, 0, &failures) || run(60, 0, &failures) || run(60, 0.5, &failures))
        return 77;   /* no Siconos numerics or GSL: skipped */
    return failures ? 1 : 0;
}
