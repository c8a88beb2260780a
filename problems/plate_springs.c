/*
 * plate_springs.c - the plate of the ESS integrator's paper
 * (the event-selected integrator paper, Sec. 5.2), an event-
 * selected system with 2N event functions: a plate in SE(2) falling under
 * gravity onto N evenly spaced vertical spring-damper legs with
 * frictionless rolling contacts, the law tests/bench/bench_ess_mujoco.c's
 * MuJoCo model integrates (its header comment).
 *
 * State (x, z, theta, vx, vz, omega): the plate's centre of mass, which lies
 * on its bottom face, and its angle (the bottom face is at height
 * z + (xi - x) tan(theta) above xi).  Leg i stands at
 * xi = -a + 2 a i / (N - 1) (xi = 0 for N = 1); its top is a roller of
 * radius rho whose top is at the rest length l0 (centre (xi, l0 - rho)).
 * The penetration of the roller into the plate, along the plate's normal
 * (-sin theta, cos theta),
 *
 *   p_i(q) = rho - (z - l0 + rho) cos(theta) - (xi - x) sin(theta),
 *
 * is zero when the plate's bottom line touches the roller; as rho -> 0 it is
 * cos(theta) times the vertical compression l0 - (z + (xi - x) tan theta),
 * and for a level plate it equals it whatever rho.  Each leg is a spring
 * k = K/N and damper c = C/N (the bed's totals K, C do not change with N),
 * and pushes only (MuJoCo's unilateral contact): with q = (x, z, theta),
 *
 *   diag(M, M, I) q'' = (0, -M g, 0) - sum over legs in stance of F_i grad p_i,
 *   F_i = k p_i + c p_i',   stance: p_i > 0 and F_i > 0.
 *
 * Event functions, two per leg (the paper's Sec. 5.2 pair, event 2i and
 * 2i + 1):
 *   touchdown i  h = p_i                    (roller top minus plate bottom
 *                                            along the normal)
 *   liftoff i    h = -(p_i + (C/K) p_i')    = -F_i / k
 * Stance of leg i is s_2i = +1 and s_2i+1 = -1.  Undamped (C = 0) the
 * liftoff function is the negative of the touchdown one, as the hopper's;
 * damped, the leg leaves when its force reaches zero, before p_i does, which
 * is where MuJoCo's clamp f >= 0 lets it go (a liftoff at p_i = 0 would pull
 * the plate down during the end of each stance).  The field is smooth
 * within each sign region and continuous at touchdown only when C = 0 (the
 * damper's force c p_i' jumps on at touchdown, as in MuJoCo).
 *
 * What still differs from MuJoCo's model: its O(d) added mass
 * (d = 1e-4, the bench's header), its fixed-step semi-implicit Euler, and
 * nothing else (gravity, inertia, contact geometry, the force law and its
 * clamp are the same).
 *
 * Size.  n = 6, m = 2N, so the model depends on N: the registry holds
 * "plate-springs" with N = 10 legs (a static struct), and
 * hes_plate_springs_model(N) allocates the model for any N from 1 to 5000
 * (hes_ess_model_destroy releases it).  The callbacks compute xi from
 * i, N and the parameter a; data points to N only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems.h"

enum { P_G, P_M, P_I, P_K, P_C, P_L0, P_A, P_RHO, NP };

static const hes_param params[NP] = {
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "mass", 1.0, "kg", "plate mass", HES_PARAM_POSITIVE, 0, 1e6, 0, 0 },
    { "inertia", 3.0, "kg m^2", "plate moment of inertia (M L^2 / 12 for L = 6 m)",
      HES_PARAM_POSITIVE, 0, 1e9, 0, 0 },
    { "K", 1000.0, "N/m", "total stiffness of the bed (each leg K/N)", HES_PARAM_POSITIVE, 0,
      1e9, 0, 0 },
    { "C", 30.0, "N s/m", "total damping of the bed (each leg C/N)", 0, 0, 1e9, 0, 0 },
    { "l0", 0.5, "m", "leg rest length (height of the rollers' tops)", HES_PARAM_POSITIVE, 0,
      1e3, 0, 0 },
    { "a", 1.0, "m", "half width of the bed: legs evenly spaced over [-a, a]", 0, 0, 1e3, 0, 0 },
    { "rho", 0.25, "m", "roller radius (more than any compression)", 0, 0, 1e3, 0, 0 },
};

typedef hes__plate_data plate_data;

/* What every leg shares: cos and sin of theta, z - l0 + rho (one sincos
 * per call, not per leg: the legs differ only in xi). */
typedef struct {
    double c, s, u;
} pose;

static pose pose_of(const double *x, const double *p)
{
    pose q = { cos(x[2]), sin(x[2]), x[1] - p[P_L0] + p[P_RHO] };
    return q;
}

/* p at offset d = xi - x, its gradient in q and its rate p' = grad p . v */
static void penetration_at(const double *x, const pose *q, double d, const double *p,
                           double *pen, double grad[3], double *rate)
{
    *pen = p[P_RHO] - q->u * q->c - d * q->s;
    grad[0] = q->s;
    grad[1] = -q->c;
    grad[2] = q->u * q->s - d * q->c;
    *rate = grad[0] * x[3] + grad[1] * x[4] + grad[2] * x[5];
}

static void penetration(const double *x, const pose *q, int i, int N, const double *p,
                        double *pen, double grad[3], double *rate)
{
    penetration_at(x, q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, pen, grad, rate);
}

static int stance(const int *s, int i) { return s[2 * i] > 0 && s[2 * i + 1] < 0; }

/* Hessian of p at offset d in q (symmetric 3 x 3, row-major) */
static void penetration_hess(const pose *q, double d, double H[9])
{
    H[0] = 0; H[1] = 0; H[2] = q->c;
    H[3] = 0; H[4] = 0; H[5] = q->s;
    H[6] = q->c; H[7] = q->s; H[8] = q->u * q->c + d * q->s;
}

/* One stance leg's part of the generalised force, -F grad p (3), and with
 * Dq of its Jacobian (Dq, Dv: 3 x 3 row-major, added), at offset d:
 * d(F grad p)/dq = grad p (k grad p + c D_q p')^T + F Hess p,
 * d(F grad p)/dv = c grad p grad p^T, with D_q p' = Hess p v. */
static void leg_terms(const double *x, const void *pv, double d, const double *p, int N,
                      double gen[3], double *Dq, double *Dv)
{
    const pose *q = pv;
    double k = p[P_K] / N, c = p[P_C] / N, pen, gr[3], rate;
    penetration_at(x, q, d, p, &pen, gr, &rate);
    double F = k * pen + c * rate;
    for (int a = 0; a < 3; a++)
        gen[a] -= F * gr[a];
    if (Dq) {
        double H[9];
        penetration_hess(q, d, H);
        hes__plate_leg_dx(k, c, pen, rate, gr, H, x + 3, Dq, Dv);
    }
}

static void field_out(const double *x, const double *p, const double *gen, double *out)
{
    out[0] = x[3];
    out[1] = x[4];
    out[2] = x[5];
    out[3] = gen[0] / p[P_M];
    out[4] = gen[1] / p[P_M];
    out[5] = gen[2] / p[P_I];
}

static int field(const double *x, const int *s, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    int N = pd->N;
    double gen[3] = { 0, -p[P_M] * p[P_G], 0 };
    for (int i = 0; i < N; i++)
        if (stance(s, i))
            leg_terms(x, &q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, N, gen, NULL, NULL);
    field_out(x, p, gen, out);
    return 0;
}

/* df/dx, column-major 6 x 6 */
static int field_dx(const double *x, const int *s, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    int N = pd->N;
    double gen[3] = { 0 }, Dq[9] = { 0 }, Dv[9] = { 0 };
    for (int i = 0; i < N; i++)
        if (stance(s, i))
            leg_terms(x, &q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, N, gen, Dq, Dv);
    hes__plate_field_dx(p[P_M], p[P_I], Dq, Dv, out);
    return 0;
}

/* The field from sums over the stance legs (plate_legs.c) */
static int field_sums(const double *x, const double *sums, const double *p, double *out,
                      void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    double gen[3] = { 0, -p[P_M] * p[P_G], 0 };
    hes__plate_sum_terms(leg_terms, x, &q, p, pd->N, p[P_A], sums, gen, NULL, NULL);
    field_out(x, p, gen, out);
    return 0;
}

static int field_dx_sums(const double *x, const double *sums, const double *p, double *out,
                         void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    double gen[3] = { 0 }, Dq[9] = { 0 }, Dv[9] = { 0 };
    hes__plate_sum_terms(leg_terms, x, &q, p, pd->N, p[P_A], sums, gen, Dq, Dv);
    hes__plate_field_dx(p[P_M], p[P_I], Dq, Dv, out);
    return 0;
}

static int sums_init(const int *s, const double *p, double *sums, void *data)
{
    const plate_data *pd = data;
    (void)p;
    memset(sums, 0, HES__PLATE_SUMS * sizeof *sums);
    for (int j = 0; j < pd->N; j++)
        if (stance(s, j))
            hes__plate_sums_add(sums, j, 1);
    return 0;
}

/* s_i has just flipped: leg i / 2 enters or leaves stance, or neither */
static int sums_flip(int i, const int *s, const double *p, double *sums, void *data)
{
    int j = i / 2, td = s[2 * j], lo = s[2 * j + 1];
    (void)p;
    (void)data;
    int now = td > 0 && lo < 0, before = i % 2 == 0 ? (-td > 0 && lo < 0) : (td > 0 && -lo < 0);
    if (now != before)
        hes__plate_sums_add(sums, j, now ? 1 : -1);
    return 0;
}

/* Guard g (touchdown 2i: p_i; liftoff 2i + 1: -(p_i + tau p_i')) and,
 * with row, its gradient: touchdown (grad p_i, 0); liftoff
 * -(grad p_i + tau Hess p_i v, tau grad p_i) */
static double guard(const double *x, const pose *q, const double *p, int N, int g,
                    double row[6])
{
    double tau = p[P_C] / p[P_K], pen, gr[3], rate, H[9];
    int i = g / 2, lift = g % 2;
    penetration(x, q, i, N, p, &pen, gr, &rate);
    if (row) {
        if (lift)
            penetration_hess(q, hes__plate_leg_x(i, N, p[P_A]) - x[0], H);
        for (int a = 0; a < 3; a++) {
            double dr = lift ? H[3 * a] * x[3] + H[3 * a + 1] * x[4] + H[3 * a + 2] * x[5] : 0;
            row[a] = lift ? -(gr[a] + tau * dr) : gr[a];
            row[3 + a] = lift ? -tau * gr[a] : 0;
        }
    }
    return lift ? -(pen + tau * rate) : pen;
}

static int events(const double *x, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    for (int g = 0; g < 2 * pd->N; g++)
        out[g] = guard(x, &q, p, pd->N, g, NULL);
    return 0;
}

static int events_some(const double *x, int k, const int *idx, const double *p, double *out,
                       void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    for (int r = 0; r < k; r++)
        out[r] = guard(x, &q, p, pd->N, idx[r], NULL);
    return 0;
}

/* Dh, m x 6 column-major */
static int events_dx(const double *x, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    int m = 2 * pd->N;
    for (int g = 0; g < m; g++) {
        double row[6];
        guard(x, &q, p, pd->N, g, row);
        for (int a = 0; a < 6; a++)
            out[g + (size_t)a * m] = row[a];
    }
    return 0;
}

static int events_dx_some(const double *x, int k, const int *idx, const double *p,
                          double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x, p);
    for (int r = 0; r < k; r++) {
        double row[6];
        guard(x, &q, p, pd->N, idx[r], row);
        for (int a = 0; a < 6; a++)
            out[r + (size_t)a * k] = row[a];
    }
    return 0;
}

/* The broad phase (hes_ess_model.h_near): both guards are affine in the
 * leg's position X = x_i, p_i = alpha_p + beta_p X and p_i' = alpha_r +
 * beta_r X, with (c, s = cos, sin theta, u = z - l0 + rho)
 *   alpha_p = rho - u c + x s,  beta_p = -s,
 *   alpha_r = s vx - c vz + u s omega + x c omega,  beta_r = -c omega,
 * over the box by interval arithmetic (plate_legs.c). */
static int events_near(const double *lo, const double *hi, double h_lo, double h_hi, int *idx,
                       const double *p, void *data)
{
    const plate_data *pd = data;
    int N = pd->N, all = hes__plate_near_all(lo, hi, N, idx);
    if (all >= 0)
        return all;
    hes__iv th = { lo[2], hi[2] }, c = hes__iv_cos(th), s = hes__iv_sin(th);
    hes__iv x = { lo[0], hi[0] }, u = { lo[1] - p[P_L0] + p[P_RHO], hi[1] - p[P_L0] + p[P_RHO] };
    hes__iv vx = { lo[3], hi[3] }, vz = { lo[4], hi[4] }, om = { lo[5], hi[5] };
    hes__iv ap = hes__iv_add((hes__iv){ p[P_RHO], p[P_RHO] },
                             hes__iv_add(hes__iv_scale(-1, hes__iv_mul(u, c)), hes__iv_mul(x, s)));
    hes__iv bp = hes__iv_scale(-1, s);
    hes__iv co = hes__iv_mul(c, om);
    hes__iv ar = hes__iv_add(hes__iv_add(hes__iv_mul(s, vx), hes__iv_scale(-1, hes__iv_mul(c, vz))),
                             hes__iv_add(hes__iv_mul(hes__iv_mul(u, s), om), hes__iv_mul(x, co)));
    hes__iv br = hes__iv_scale(-1, co);
    double tau = p[P_C] / p[P_K];
    hes__iv al = hes__iv_scale(-1, hes__iv_add(ap, hes__iv_scale(tau, ar)));
    hes__iv bl = hes__iv_scale(-1, hes__iv_add(bp, hes__iv_scale(tau, br)));
    int k = hes__plate_legs_near(ap, bp, h_lo, h_hi, N, p[P_A], 0, 2, idx);   /* touchdown */
    return k + hes__plate_legs_near(al, bl, h_lo, h_hi, N, p[P_A], 1, 2, idx + k);  /* liftoff */
}

#define DEFAULT_N 10

static const plate_data default_data = { DEFAULT_N, NULL };

#define LEG(i) "touchdown " #i, "liftoff " #i
static const char *const default_event_names[2 * DEFAULT_N] = {
    LEG(0), LEG(1), LEG(2), LEG(3), LEG(4), LEG(5), LEG(6), LEG(7), LEG(8), LEG(9),
};
#undef LEG

#define DESCRIPTION "plate in SE(2) falling onto N spring-damper legs with frictionless rollers " \
                    "(ESS paper, Sec. 5.2)"

const hes_ess_model hes__ess_problem_plate_springs = {
    "plate-springs", DESCRIPTION " (N = 10; hes_plate_springs_model for others)",
    6, 2 * DEFAULT_N, hes__plate_state_names, default_event_names, NP, params, field, field_dx,
    events,
    events_dx, NULL, (void *)&default_data, NULL, 0, 0, events_some, events_dx_some, events_near,
    HES__PLATE_SUMS, sums_init, sums_flip, field_sums, field_dx_sums, NULL, NULL, NULL,
};

hes_ess_model *hes_plate_springs_model(int N)
{
    if (N < 1 || N > HES_PLATE_SPRINGS_MAX_N)
        return NULL;
    return hes__plate_legs_model(&hes__ess_problem_plate_springs, N, 1, DESCRIPTION);
}
