/*
 * plate_vertical.c - the plate of the ESS integrator's paper exactly as its
 * Sec. 5.2 states it (the event-selected integrator paper): a
 * plate in SE(2) falling under gravity onto N vertical spring-damper legs
 * whose tips slide frictionlessly along its bottom face.  An event-selected
 * system with 2N event functions.  plate_springs.c is hes's own variant
 * (rollers, one-sided forces, a wider and heavier plate); this one is the
 * paper's, with which its experiments were made.
 *
 * State (x, z, theta, vx, vz, omega); mass M = 1 kg, inertia I = 0.1875
 * kg m^2 (a thin rod of 1.5 m), g = 9.81 m/s^2.  N vertical legs stand at
 * x_i = linspace(-a, a, N) with a = 0.5 m (x_0 = 0 for N = 1), their tips at
 * height 0.  The plate's bottom line is at height z + (x_i - x) tan(theta)
 * above x_i, so leg i penetrates it by
 *
 *   pen_i = -(z + (x_i - x) tan theta),
 *   pen_i' = tan(theta) vx - vz - (x_i - x) sec^2(theta) omega,
 *
 * and while pen_i > 0 it pushes with F_i = k pen_i + b pen_i' (k = K/N,
 * b = C/N, K = 2000 N/m, C = 10 N s/m: the bed's totals do not change with
 * N), not clamped (a fast rebound may pull).  Frictionless: the force is
 * -F_i grad pen_i, so with q = (x, z, theta)
 *
 *   M x''     = sum F_i (-tan theta)
 *   M z''     = -M g + sum F_i
 *   I theta'' = sum F_i (x_i - x) sec^2(theta),
 *
 * the sums over the legs in stance.  Event functions, two per leg:
 *   h_i     =  pen_i   touchdown i   (i = 0 .. N-1)
 *   h_{N+i} = -pen_i   liftoff i
 * and leg i is in stance iff s_i = +1 and s_{N+i} = -1 (hes's convention,
 * as hopper-1d's and plate-springs'; both guards are the same surface, and
 * each is live for one sign of pen_i').  The force jumps by b pen_i' at
 * touchdown and liftoff (the damper switches on and off), the field is
 * smooth within each sign region.  The energy
 *   E = M (vx^2 + vz^2) / 2 + I omega^2 / 2 + M g z + sum_{pen_i > 0} k pen_i^2 / 2
 * is continuous and dE/dt = -sum_{stance} b pen_i'^2 <= 0.
 *
 * The paper's experiment: from rest at x = 0, z0 in [0.2, 0.5] m, theta0
 * in [-0.2, 0.2] rad, for 2 s.
 *
 * Size.  n = 6, m = 2N: the registry holds "plate-vertical" with N = 10
 * legs (a static struct), and hes_plate_vertical_model(N) allocates the
 * model for any N from 1 to HES_PLATE_VERTICAL_MAX_N
 * (hes_ess_model_destroy releases it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems.h"

enum { P_G, P_M, P_I, P_K, P_C, P_A, NP };

static const hes_param params[NP] = {
    { "g", 9.81, "m/s^2", "gravity", HES_PARAM_POSITIVE, 0, 1e3, 0, 0 },
    { "mass", 1.0, "kg", "plate mass", HES_PARAM_POSITIVE, 0, 1e6, 0, 0 },
    { "inertia", 0.1875, "kg m^2", "plate moment of inertia (M L^2 / 12 for L = 1.5 m)",
      HES_PARAM_POSITIVE, 0, 1e9, 0, 0 },
    { "K", 2000.0, "N/m", "total stiffness of the bed (each leg K/N)", HES_PARAM_POSITIVE, 0,
      1e9, 0, 0 },
    { "C", 10.0, "N s/m", "total damping of the bed (each leg C/N)", 0, 0, 1e9, 0, 0 },
    { "a", 0.5, "m", "half width of the bed: legs evenly spaced over [-a, a]", 0, 0, 1e3, 0, 0 },
};

typedef hes__plate_data plate_data;

/* What every leg shares: tan theta and sec^2 theta */
typedef struct {
    double t, s2;
} pose;

static pose pose_of(const double *x)
{
    double t = tan(x[2]);
    pose q = { t, 1 + t * t };
    return q;
}

/* The penetration of a leg at horizontal offset d = x_i - x from the
 * plate's centre: pen = -(z + d tan theta), its gradient in q and its
 * rate pen' = grad pen . v */
static void penetration_at(const double *x, const pose *q, double d, double *pen,
                           double grad[3], double *rate)
{
    *pen = -(x[1] + d * q->t);
    grad[0] = q->t;
    grad[1] = -1;
    grad[2] = -d * q->s2;
    *rate = grad[0] * x[3] + grad[1] * x[4] + grad[2] * x[5];
}

static void penetration(const double *x, const pose *q, int i, int N, const double *p,
                        double *pen, double grad[3], double *rate)
{
    penetration_at(x, q, hes__plate_leg_x(i, N, p[P_A]) - x[0], pen, grad, rate);
}

/* Hessian of pen in q at offset d (symmetric 3 x 3, row-major) */
static void penetration_hess(const pose *q, double d, double H[9])
{
    H[0] = 0;     H[1] = 0; H[2] = q->s2;
    H[3] = 0;     H[4] = 0; H[5] = 0;
    H[6] = q->s2; H[7] = 0; H[8] = -2 * d * q->s2 * q->t;
}

static int stance(const int *s, int i, int N) { return s[i] > 0 && s[N + i] < 0; }

/* One stance leg's part of the generalised force, -F grad pen (3), and of
 * its Jacobian, Dq and Dv (3 x 3 each, row-major, added), at offset d */
static void leg_terms(const double *x, const void *pv, double d, const double *p, int N,
                      double gen[3], double *Dq, double *Dv)
{
    const pose *q = pv;
    double k = p[P_K] / N, c = p[P_C] / N, pen, gr[3], rate;
    penetration_at(x, q, d, &pen, gr, &rate);
    double F = k * pen + c * rate;
    for (int a = 0; a < 3; a++)
        gen[a] -= F * gr[a];
    if (Dq) {
        double H[9];
        penetration_hess(q, d, H);
        hes__plate_leg_dx(k, c, pen, rate, gr, H, x + 3, Dq, Dv);
    }
}

/* The field from the legs' generalised force gen (3) */
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
    pose q = pose_of(x);
    int N = pd->N;
    double gen[3] = { 0, -p[P_M] * p[P_G], 0 };
    for (int i = 0; i < N; i++)
        if (stance(s, i, N))
            leg_terms(x, &q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, N, gen, NULL, NULL);
    field_out(x, p, gen, out);
    return 0;
}

/* df/dx, column-major 6 x 6: d(F_i grad pen_i)/dq = grad pen_i (k grad
 * pen_i + c D_q pen_i')^T + F_i Hess pen_i, d(F_i grad pen_i)/dv =
 * c grad pen_i grad pen_i^T, with D_q pen_i' = Hess pen_i v. */
static int field_dx(const double *x, const int *s, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N;
    double gen[3] = { 0 }, Dq[9] = { 0 }, Dv[9] = { 0 }; /* row-major */
    for (int i = 0; i < N; i++)
        if (stance(s, i, N))
            leg_terms(x, &q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, N, gen, Dq, Dv);
    hes__plate_field_dx(p[P_M], p[P_I], Dq, Dv, out);
    return 0;
}

/* The field from the sums of the stance legs' indices (plate_legs.c) */
static void summed_terms(const double *x, const double *p, int N, const double *sums,
                         double gen[3], double *Dq, double *Dv)
{
    pose q = pose_of(x);
    hes__plate_sum_terms(leg_terms, x, &q, p, N, p[P_A], sums, gen, Dq, Dv);
}

static int field_sums(const double *x, const double *sums, const double *p, double *out,
                      void *data)
{
    const plate_data *pd = data;
    double gen[3] = { 0, -p[P_M] * p[P_G], 0 };
    summed_terms(x, p, pd->N, sums, gen, NULL, NULL);
    field_out(x, p, gen, out);
    return 0;
}

static int field_dx_sums(const double *x, const double *sums, const double *p, double *out,
                         void *data)
{
    const plate_data *pd = data;
    double gen[3] = { 0 }, Dq[9] = { 0 }, Dv[9] = { 0 };
    summed_terms(x, p, pd->N, sums, gen, Dq, Dv);
    hes__plate_field_dx(p[P_M], p[P_I], Dq, Dv, out);
    return 0;
}

/*
 * Energy bookkeeping (hes_ess_model.energy): E = M (vx^2 + vz^2) / 2 +
 * I omega^2 / 2 + M g z + sum over the stance legs of k pen_i^2 / 2, and
 * its rate along the field, P = sum over the stance legs of -b pen_i'^2
 * (the dampers' loss: the springs' work cancels, gravity's too).  E is
 * continuous where a leg touches down or lifts off (pen_i = 0).  A leg's
 * two terms are quadratic in its offset, so the sums give them as they
 * give the field.
 */
static void energy_terms(const double *x, const void *pv, double d, const double *p, int N,
                         double out[3], double *Dq, double *Dv)
{
    double pen, gr[3], rate;
    (void)Dq;
    (void)Dv;
    penetration_at(x, pv, d, &pen, gr, &rate);
    out[0] += 0.5 * p[P_K] / N * pen * pen;
    out[1] -= p[P_C] / N * rate * rate;
}

static void energy_out(const double *x, const double *p, const double *legs, double *out)
{
    out[0] = 0.5 * p[P_M] * (x[3] * x[3] + x[4] * x[4]) + 0.5 * p[P_I] * x[5] * x[5] +
             p[P_M] * p[P_G] * x[1] + legs[0];
    out[1] = legs[1];
}

static int energy(const double *x, const int *s, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N;
    double legs[3] = { 0 };
    for (int i = 0; i < N; i++)
        if (stance(s, i, N))
            energy_terms(x, &q, hes__plate_leg_x(i, N, p[P_A]) - x[0], p, N, legs, NULL, NULL);
    energy_out(x, p, legs, out);
    return 0;
}

static int energy_sums(const double *x, const double *sums, const double *p, double *out,
                       void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    double legs[3] = { 0 };
    hes__plate_sum_terms(energy_terms, x, &q, p, pd->N, p[P_A], sums, legs, NULL, NULL);
    energy_out(x, p, legs, out);
    return 0;
}

static int sums_init(const int *s, const double *p, double *sums, void *data)
{
    const plate_data *pd = data;
    (void)p;
    memset(sums, 0, HES__PLATE_SUMS * sizeof *sums);
    for (int j = 0; j < pd->N; j++)
        if (stance(s, j, pd->N))
            hes__plate_sums_add(sums, j, 1);
    return 0;
}

/* s_i has just flipped: leg i % N enters or leaves stance, or neither */
static int sums_flip(int i, const int *s, const double *p, double *sums, void *data)
{
    const plate_data *pd = data;
    int N = pd->N, j = i % N, td = s[j], lo = s[N + j];
    (void)p;
    int now = td > 0 && lo < 0, before = i < N ? (-td > 0 && lo < 0) : (td > 0 && -lo < 0);
    if (now != before)
        hes__plate_sums_add(sums, j, now ? 1 : -1);
    return 0;
}

static int events(const double *x, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N;
    for (int i = 0; i < N; i++) {
        double pen, gr[3], rate;
        penetration(x, &q, i, N, p, &pen, gr, &rate);
        out[i] = pen;
        out[N + i] = -pen;
    }
    return 0;
}

static int events_some(const double *x, int k, const int *idx, const double *p, double *out,
                       void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N;
    for (int r = 0; r < k; r++) {
        double pen, gr[3], rate;
        penetration(x, &q, idx[r] % N, N, p, &pen, gr, &rate);
        out[r] = idx[r] < N ? pen : -pen;
    }
    return 0;
}

/* Dh, m x 6 column-major: touchdown (grad pen_i, 0), liftoff its negative */
static int events_dx(const double *x, const double *p, double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N, m = 2 * N;
    for (int i = 0; i < N; i++) {
        double pen, gr[3], rate;
        penetration(x, &q, i, N, p, &pen, gr, &rate);
        for (int a = 0; a < 3; a++) {
            out[i + (size_t)a * m] = gr[a];
            out[i + (size_t)(3 + a) * m] = 0;
            out[N + i + (size_t)a * m] = -gr[a];
            out[N + i + (size_t)(3 + a) * m] = 0;
        }
    }
    return 0;
}

static int events_dx_some(const double *x, int k, const int *idx, const double *p,
                          double *out, void *data)
{
    const plate_data *pd = data;
    pose q = pose_of(x);
    int N = pd->N;
    for (int r = 0; r < k; r++) {
        double pen, gr[3], rate, sg = idx[r] < N ? 1 : -1;
        penetration(x, &q, idx[r] % N, N, p, &pen, gr, &rate);
        for (int a = 0; a < 3; a++) {
            out[r + (size_t)a * k] = sg * gr[a];
            out[r + (size_t)(3 + a) * k] = 0;
        }
    }
    return 0;
}

/* The broad phase (hes_ess_model.h_near): pen_j = alpha + beta x_j with
 * alpha = -z + x tan theta and beta = -tan theta, over the box by interval
 * arithmetic (plate_legs.c) */
static int events_near(const double *lo, const double *hi, double h_lo, double h_hi, int *idx,
                       const double *p, void *data)
{
    const plate_data *pd = data;
    int N = pd->N, all = hes__plate_near_all(lo, hi, N, idx);
    if (all >= 0)
        return all;
    hes__iv t = hes__iv_tan((hes__iv){ lo[2], hi[2] });
    hes__iv A = hes__iv_add(hes__iv_scale(-1, (hes__iv){ lo[1], hi[1] }),
                            hes__iv_mul((hes__iv){ lo[0], hi[0] }, t));
    hes__iv B = hes__iv_scale(-1, t);
    int k = hes__plate_legs_near(A, B, h_lo, h_hi, N, p[P_A], 0, 1, idx);      /* pen */
    return k + hes__plate_legs_near(hes__iv_scale(-1, A), hes__iv_scale(-1, B), h_lo, h_hi, N,
                                    p[P_A], N, 1, idx + k);                  /* -pen */
}

#define DEFAULT_N 10

static const plate_data default_data = { DEFAULT_N, NULL };

static const char *const default_event_names[2 * DEFAULT_N] = {
    "touchdown 0", "touchdown 1", "touchdown 2", "touchdown 3", "touchdown 4",
    "touchdown 5", "touchdown 6", "touchdown 7", "touchdown 8", "touchdown 9",
    "liftoff 0",   "liftoff 1",   "liftoff 2",   "liftoff 3",   "liftoff 4",
    "liftoff 5",   "liftoff 6",   "liftoff 7",   "liftoff 8",   "liftoff 9",
};

#define DESCRIPTION "plate in SE(2) falling onto N vertical spring-damper legs, the ESS " \
                    "paper's plate (Sec. 5.2)"

const hes_ess_model hes__ess_problem_plate_vertical = {
    "plate-vertical", DESCRIPTION " (N = 10; hes_plate_vertical_model for others)",
    6, 2 * DEFAULT_N, hes__plate_state_names, default_event_names, NP, params, field, field_dx,
    events,
    events_dx, NULL, (void *)&default_data, NULL, 0, 0, events_some, events_dx_some, events_near,
    HES__PLATE_SUMS, sums_init, sums_flip, field_sums, field_dx_sums, energy, energy_sums, NULL,
};

hes_ess_model *hes_plate_vertical_model(int N)
{
    if (N < 1 || N > HES_PLATE_VERTICAL_MAX_N)
        return NULL;
    return hes__plate_legs_model(&hes__ess_problem_plate_vertical, N, 0, DESCRIPTION);
}
