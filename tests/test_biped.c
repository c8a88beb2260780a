/*
 * test_biped.c - the knee biped (problems/knee_biped.c, Chen 2007) and the
 * two trotters (problems/trot_rigid.c, trot_soft.c) against independent
 * computations.  The biped's kinematics are written here from the geometry
 * in the model's header comment (point masses: hip mh, thighs mt, shanks ms;
 * angles from the vertical, e(th) = (-sin th, cos th); slope normal
 * n = (sin s, cos s), downhill tangent t = (cos s, -sin s)), never through
 * the library's mass matrices or constraint functions, and give: the
 * heelstrike geometry of the gait found, the angular momenta the plastic
 * impacts must conserve, the energy they dissipate, the trailing foot's
 * lift-off and the generalized forces of the joint torques (virtual work).
 * Saltation matrices are compared with central differences of the flow
 * across each event, as in test_saltation.c, and every mechanical
 * built-in's analytic field Jacobian with differences of its field.  The trotters' decoupling
 * measure (decoupled-limbs paper, eq. 6) is compared with its closed form.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

/* ------------------------------------------------------------ utilities */

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

static double param(const hes_system *sys, const char *name)
{
    double v;
    ck_assert_msg(hes_system_get_param(sys, name, &v) == HES_OK, "no parameter %s", name);
    return v;
}

/* ------------------------------------------- the biped's own kinematics */

typedef struct {
    double mh, mt, ms, a1, b1, a2, b2, g, s;
    double ls, lt, L;
} biped;

static biped biped_of(const hes_system *sys)
{
    biped B;
    B.mh = param(sys, "mh");
    B.mt = param(sys, "mt");
    B.ms = param(sys, "ms");
    B.a1 = param(sys, "a1");
    B.b1 = param(sys, "b1");
    B.a2 = param(sys, "a2");
    B.b2 = param(sys, "b2");
    B.g = param(sys, "g");
    B.s = param(sys, "slope");
    B.ls = B.a1 + B.b1;
    B.lt = B.a2 + B.b2;
    B.L = B.ls + B.lt;
    return B;
}

/* The points of the pinned walker with stance foot at `foot`, stance leg
 * th[0], swing thigh th[1], swing shank th[2]: each is foot + sum_k c[k]
 * e(th[k]).  Points 0..4 are the point masses, 5 the swing foot (massless). */
enum { STANCE_SHANK, STANCE_THIGH, HIP, SWING_THIGH, SWING_SHANK, SWING_FOOT, N_POINTS };
enum { N_MASSES = 5 };

static void coefficients(const biped *B, double c[N_POINTS][3], double m[N_POINTS])
{
    const double tab[N_POINTS][3] = {
        [STANCE_SHANK] = { B->a1, 0, 0 },
        [STANCE_THIGH] = { B->ls + B->a2, 0, 0 },
        [HIP] = { B->L, 0, 0 },
        [SWING_THIGH] = { B->L, -B->b2, 0 },
        [SWING_SHANK] = { B->L, -B->lt, -B->b1 },
        [SWING_FOOT] = { B->L, -B->lt, -B->ls },
    };
    const double mass[N_POINTS] = { B->ms, B->mt, B->mh, B->mt, B->ms, 0.0 };
    memcpy(c, tab, sizeof tab);
    memcpy(m, mass, sizeof mass);
}

typedef struct {
    double r[N_POINTS][2];    /* positions */
    double v[N_POINTS][2];    /* velocities */
    double J[N_POINTS][2][3]; /* d r / d th */
    double m[N_POINTS];
} walker;

/* th, w: three angles and rates (a locked state has th[2] = th[1],
 * w[2] = w[1]). */
static walker walker_at(const biped *B, const double foot[2], const double th[3],
                        const double w[3])
{
    walker W;
    double c[N_POINTS][3];
    coefficients(B, c, W.m);
    for (int i = 0; i < N_POINTS; i++) {
        W.r[i][0] = foot[0];
        W.r[i][1] = foot[1];
        W.v[i][0] = W.v[i][1] = 0;
        for (int k = 0; k < 3; k++) {
            /* e(th) = (-sin th, cos th), e'(th) = (-cos th, -sin th) */
            W.r[i][0] += c[i][k] * -sin(th[k]);
            W.r[i][1] += c[i][k] * cos(th[k]);
            W.J[i][0][k] = c[i][k] * -cos(th[k]);
            W.J[i][1][k] = c[i][k] * -sin(th[k]);
            W.v[i][0] += W.J[i][0][k] * w[k];
            W.v[i][1] += W.J[i][1][k] * w[k];
        }
    }
    return W;
}

/* Unlocked state [th1, th2, th3, w1, w2, w3] or locked [th1, th2, w1, w2]. */
static walker walker_of_state(const biped *B, const double foot[2], const double *x, int locked)
{
    double th[3], w[3];
    if (locked) {
        th[0] = x[0]; th[1] = th[2] = x[1];
        w[0] = x[2]; w[1] = w[2] = x[3];
    } else {
        for (int k = 0; k < 3; k++) {
            th[k] = x[k];
            w[k] = x[3 + k];
        }
    }
    return walker_at(B, foot, th, w);
}

/* Angular momentum about o of the listed point masses, and the sum of the
 * magnitudes of its terms (the scale its rounding error is relative to). */
static double ang_mom(const walker *W, const int *pts, int n, const double o[2], double *scale)
{
    double h = 0, sc = 0;
    for (int k = 0; k < n; k++) {
        int i = pts[k];
        double rx = W->r[i][0] - o[0], ry = W->r[i][1] - o[1];
        double term = W->m[i] * (rx * W->v[i][1] - ry * W->v[i][0]);
        h += term;
        sc += W->m[i] * hypot(rx, ry) * hypot(W->v[i][0], W->v[i][1]);
    }
    if (scale)
        *scale = sc;
    return h;
}

static double kinetic(const walker *W)
{
    double e = 0;
    for (int i = 0; i < N_MASSES; i++)
        e += 0.5 * W->m[i] * (W->v[i][0] * W->v[i][0] + W->v[i][1] * W->v[i][1]);
    return e;
}

/* Mass matrix sum_i m_i J_i^T J_i in the k coordinates; locked (k = 2):
 * the shank turns with the thigh, d r / d th2 = J[.][1] + J[.][2]. */
static void own_mass_matrix(const walker *W, int k, double *M)
{
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            double s = 0;
            for (int i = 0; i < N_MASSES; i++)
                for (int x = 0; x < 2; x++) {
                    double ja = W->J[i][x][a], jb = W->J[i][x][b];
                    if (k == 2 && a == 1)
                        ja += W->J[i][x][2];
                    if (k == 2 && b == 1)
                        jb += W->J[i][x][2];
                    s += W->m[i] * ja * jb;
                }
            M[a + b * k] = s;
        }
}

static double normal_of(const biped *B, const double r[2])
{
    return sin(B->s) * r[0] + cos(B->s) * r[1];
}

static double tangent_of(const biped *B, const double r[2])
{
    return cos(B->s) * r[0] - sin(B->s) * r[1];
}

static hes_system *knee_biped(double slope)
{
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    ck_assert_ptr_nonnull(sys);
    ck_assert_int_eq(hes_system_set_param(sys, "slope", slope), HES_OK);
    return sys;
}

/* ----------------------------------------------------------------- gait */

START_TEST(test_knee_biped_passive_gait_is_found_and_checked)
{
    hes_system *sys = test_system_of(hes_problem_find("knee-biped"));
    ck_assert_ptr_nonnull(sys);
    const hes_model *m = hes_system_model(sys);
    biped B = biped_of(sys);
    hes_analysis res;
    ck_assert_msg(hes_analyze(sys, 1, &res) == HES_OK, "%s", hes_system_errmsg(sys));
    const hes_orbit *o = &res.orbit;
    ck_assert_msg(o->residual < 1e-10, "orbit residual %g", o->residual);
    ck_assert(res.have_check);
    ck_assert_msg(res.check_max_abs_diff < 1e-6, "monodromy vs FD of the return map: %g",
                  res.check_max_abs_diff);
    /* the supplied Jacobians at the orbit's states: both fields, the three
       force Jacobians of each mechanical system, the event callbacks */
    ck_assert_msg(res.jacobians.n_checked >= 8 && res.jacobians.max_rel_err < 1e-7,
                  "%d Jacobians, worst %g at %s", res.jacobians.n_checked,
                  res.jacobians.max_rel_err, res.jacobians.where);
    ck_assert_int_eq(o->traj.n_events, 2);
    const hes_event *knee = &o->traj.events[0], *heel = &o->traj.events[1];
    ck_assert_str_eq(m->transitions[knee->transition].name, "kneestrike");
    ck_assert_str_eq(m->transitions[heel->transition].name, "heelstrike");
    ck_assert_msg(res.stab.psi > 0 && res.stab.psi < 1, "psi = %.12g", res.stab.psi);
    ck_assert(res.stab.stable);
    /* the period ends at the heelstrike */
    ck_assert_double_eq_tol(o->period, heel->t - o->t0, 1e-12);

    const double origin[2] = { 0, 0 };
    /* Just before the heelstrike (locked): the swing foot is on the slope,
     * ahead of the stance foot, moving into the slope. */
    walker pre = walker_of_state(&B, origin, heel->x_minus, 1);
    double h_pre = normal_of(&B, pre.r[SWING_FOOT]);
    double step_pre = tangent_of(&B, pre.r[SWING_FOOT]);
    double vn_pre = normal_of(&B, pre.v[SWING_FOOT]);
    ck_assert_msg(fabs(h_pre) < 1e-10 * B.L, "swing foot height at heelstrike %g", h_pre);
    ck_assert_msg(step_pre > 0.1 * B.L, "step length %g", step_pre);
    ck_assert_msg(vn_pre < 0, "swing foot normal velocity at heelstrike %g", vn_pre);

    /* The period itself: the locked phase from the kneestrike, integrated
     * for period - t_kneestrike, ends with the swing foot on the slope. */
    double x1[4];
    ck_assert_int_eq(hes_variational(sys, m->transitions[knee->transition].to, knee->tm,
                                     o->t0 + o->period - knee->t, knee->x_plus, x1, NULL),
                     HES_OK);
    walker end = walker_of_state(&B, origin, x1, 1);
    double h_end = normal_of(&B, end.r[SWING_FOOT]);
    ck_assert_msg(fabs(h_end) < 1e-9 * B.L, "swing foot height at t = period: %g", h_end);

    /* Just after the heelstrike (legs swapped; the section state): the new
     * swing leg is straight, its foot (the old stance foot) on the slope one
     * step behind. */
    ck_assert_int_eq(o->mode, m->transitions[heel->transition].to);
    for (int i = 0; i < 6; i++)
        ck_assert_double_eq_tol(o->x0[i], heel->x_plus[i], 1e-9);
    const double *xp = heel->x_plus;
    ck_assert_double_eq_tol(xp[1], xp[2], 1e-15);
    ck_assert_double_eq_tol(xp[4], xp[5], 1e-15);
    walker post = walker_of_state(&B, origin, xp, 0);
    double h_post = normal_of(&B, post.r[SWING_FOOT]);
    double step_post = tangent_of(&B, post.r[SWING_FOOT]);
    ck_assert_msg(fabs(h_post) < 1e-10 * B.L, "trailing foot height after heelstrike %g", h_post);
    ck_assert_msg(fabs(step_post + step_pre) < 1e-10 * B.L, "step %.15g behind vs %.15g ahead",
                  -step_post, step_pre);
    hes_analysis_free(&res);
    hes_system_destroy(sys);
}
END_TEST

/* ------------------------------------------------------------ saltation */

/* For both events of the gait at this slope: A_post(d) Xi A_pre(d) vs
 * central differences of the flow from d before the event to d after it
 * (tests/testutil.c); the worst relative difference. */
static double check_biped_events(double slope)
{
    hes_system *sys = knee_biped(slope);
    const hes_model *m = hes_system_model(sys);
    hes_orbit orb;
    ck_assert_msg(hes_orbit_find(sys, &orb) == HES_OK, "slope %g: %s", slope,
                  hes_system_errmsg(sys));
    ck_assert_int_eq(orb.traj.n_events, 2);
    double worst = 0;
    for (int k = 0; k < orb.traj.n_events; k++) {
        const hes_event *ev = &orb.traj.events[k];
        const hes_transition *T = &m->transitions[ev->transition];
        int ni = m->modes[T->from].dim, nj = m->modes[T->to].dim;
        /* kneestrike 6 -> 4, heelstrike 4 -> 6 */
        ck_assert_int_eq(ni, strcmp(T->name, "kneestrike") == 0 ? 6 : 4);
        ck_assert_int_eq(nj, 10 - ni);
        double rel = test_saltation_vs_flow(sys, ev, 1e-3);
        ck_assert_msg(rel < 1e-6, "slope %g event '%s': relative difference %g", slope,
                      T->name, rel);
        worst = fmax(worst, rel);
    }
    hes_orbit_free(&orb);
    hes_system_destroy(sys);
    return worst;
}

START_TEST(test_knee_biped_saltation_equals_fd_of_flow_across_kneestrike_and_heelstrike)
{
    ck_assert(check_biped_events(0.0504) < 1e-6); /* the default slope */
    ck_assert(check_biped_events(0.06) < 1e-6);
}
END_TEST

/* ------------------------------------------------------------- impacts */

START_TEST(test_knee_biped_impacts_conserve_angular_momenta)
{
    const double slopes[] = { 0.0504, 0.06 };
    for (int si = 0; si < 2; si++) {
        hes_system *sys = knee_biped(slopes[si]);
        const hes_model *m = hes_system_model(sys);
        biped B = biped_of(sys);
        hes_orbit orb;
        ck_assert_msg(hes_orbit_find(sys, &orb) == HES_OK, "%s", hes_system_errmsg(sys));
        ck_assert_int_eq(orb.traj.n_events, 2);
        const hes_event *knee = &orb.traj.events[0], *heel = &orb.traj.events[1];
        ck_assert_str_eq(m->transitions[knee->transition].name, "kneestrike");
        ck_assert_str_eq(m->transitions[heel->transition].name, "heelstrike");
        const double origin[2] = { 0, 0 };
        const int all[] = { STANCE_SHANK, STANCE_THIGH, HIP, SWING_THIGH, SWING_SHANK };
        const int swing_leg[] = { SWING_THIGH, SWING_SHANK };
        const int stance_leg[] = { STANCE_SHANK, STANCE_THIGH };
        double sc, sc2;

        /* Kneestrike: the configuration does not jump and the knee is straight;
         * the knee-stop impulse is internal to the swing leg and the ground
         * acts at the stance foot only. */
        const double *xm = knee->x_minus, *xp = knee->x_plus;
        ck_assert_msg(fabs(xm[1] - xm[2]) < 1e-9, "knee angle at kneestrike %g", xm[1] - xm[2]);
        ck_assert_double_eq_tol(xp[0], xm[0], 1e-15);
        ck_assert_double_eq_tol(xp[1], xm[1], 1e-15);
        const double th_k[3] = { xm[0], xm[1], xm[2] };
        const double wp_k[3] = { xp[2], xp[3], xp[3] };
        walker kb = walker_at(&B, origin, th_k, xm + 3), ka = walker_at(&B, origin, th_k, wp_k);
        double H0 = ang_mom(&kb, all, 5, origin, &sc), H1 = ang_mom(&ka, all, 5, origin, NULL);
        double e_tot = fabs(H1 - H0) / sc;
        double S0 = ang_mom(&kb, swing_leg, 2, kb.r[HIP], &sc2);
        double S1 = ang_mom(&ka, swing_leg, 2, ka.r[HIP], NULL);
        double e_leg = fabs(S1 - S0) / sc2;
        double K0 = kinetic(&kb), K1 = kinetic(&ka);
        ck_assert_msg(e_tot < 1e-10, "kneestrike: whole-walker momentum about the stance foot "
                      "%.17g -> %.17g", H0, H1);
        ck_assert_msg(e_leg < 1e-10, "kneestrike: swing-leg momentum about the hip %.17g -> %.17g",
                      S0, S1);
        ck_assert_msg(K1 < K0, "kneestrike: kinetic energy %.17g -> %.17g", K0, K1);
        /* the impact changes something: the shank's rate jumps to the thigh's */
        ck_assert(fabs(xm[5] - xm[4]) > 1e-3);

        /* Heelstrike: the new stance foot is where the swing foot lands; the
         * legs swap; the trailing foot leaves the ground without impulse. */
        xm = heel->x_minus;
        xp = heel->x_plus;
        walker hb = walker_of_state(&B, origin, xm, 1);
        const double foot[2] = { hb.r[SWING_FOOT][0], hb.r[SWING_FOOT][1] };
        walker ha = walker_of_state(&B, foot, xp, 0);
        /* the masses do not move: after the swap each is where it was */
        const int same[][2] = { { STANCE_SHANK, SWING_SHANK }, { STANCE_THIGH, SWING_THIGH },
                                { HIP, HIP }, { SWING_THIGH, STANCE_THIGH },
                                { SWING_SHANK, STANCE_SHANK } };
        for (int i = 0; i < 5; i++)
            for (int c = 0; c < 2; c++)
                ck_assert_msg(fabs(hb.r[same[i][0]][c] - ha.r[same[i][1]][c]) < 1e-12,
                              "heelstrike: mass %d moved to %d by %g", same[i][0], same[i][1],
                              hb.r[same[i][0]][c] - ha.r[same[i][1]][c]);
        ck_assert(fabs(ha.r[SWING_FOOT][0]) < 1e-12 && fabs(ha.r[SWING_FOOT][1]) < 1e-12);
        H0 = ang_mom(&hb, all, 5, foot, &sc);
        H1 = ang_mom(&ha, all, 5, foot, NULL);
        e_tot = fabs(H1 - H0) / sc;
        /* the old stance leg (straight, pinned at the hip) is the new swing leg */
        S0 = ang_mom(&hb, stance_leg, 2, hb.r[HIP], &sc2);
        S1 = ang_mom(&ha, swing_leg, 2, ha.r[HIP], NULL);
        e_leg = fabs(S1 - S0) / sc2;
        K0 = kinetic(&hb);
        K1 = kinetic(&ha);
        double lift = normal_of(&B, ha.v[SWING_FOOT]);
        ck_assert_msg(e_tot < 1e-10, "heelstrike: whole-walker momentum about the impact point "
                      "%.17g -> %.17g", H0, H1);
        ck_assert_msg(e_leg < 1e-10, "heelstrike: old stance leg momentum about the hip "
                      "%.17g -> %.17g", S0, S1);
        ck_assert_msg(K1 < K0, "heelstrike: kinetic energy %.17g -> %.17g", K0, K1);
        ck_assert_msg(lift > 0, "trailing foot normal velocity after heelstrike %g", lift);
        hes_orbit_free(&orb);
        hes_system_destroy(sys);
    }
}
END_TEST

/* -------------------------------------------------------------- torques */

START_TEST(test_knee_biped_torques_enter_as_inputs)
{
    const hes_model *model = hes_problem_find("knee-biped");
    int iu = hes_model_mode_index(model, "unlocked"), il = hes_model_mode_index(model, "locked");
    ck_assert_int_ge(iu, 0);
    ck_assert_int_ge(il, 0);
    /* (ankle, hip, knee) */
    const double torques[][3] = { { 0, 0.7, 0 }, { 0.3, 0, 0 }, { 0, 0, -0.4 }, { 0.25, -0.6, 0.35 } };
    const double xu[6] = { 0.12, -0.31, -0.52, -1.05, 0.47, 2.3 };
    const double xl[4] = { -0.05, 0.26, -0.72, 1.26 };
    const double origin[2] = { 0, 0 };
    for (int c = 0; c < 4; c++) {
        hes_system *off = test_system_of(model), *on = test_system_of(model);
        ck_assert_int_eq(hes_system_set_param(on, "ankle_torque", torques[c][0]), HES_OK);
        ck_assert_int_eq(hes_system_set_param(on, "hip_torque", torques[c][1]), HES_OK);
        ck_assert_int_eq(hes_system_set_param(on, "knee_torque", torques[c][2]), HES_OK);
        biped B = biped_of(off);
        for (int locked = 0; locked < 2; locked++) {
            int mode = locked ? il : iu, k = locked ? 2 : 3;
            const double *x = locked ? xl : xu;
            double f_off[6], f_on[6], M[9], Mlib[9], Q[3], dacc[3];
            const hes_mode *md = &model->modes[mode];
            ck_assert_int_eq(md->field(0.0, x, hes_system_params(off), f_off, md->data), 0);
            ck_assert_int_eq(md->field(0.0, x, hes_system_params(on), f_on, md->data), 0);
            for (int i = 0; i < k; i++) /* the rates do not depend on forces */
                ck_assert_double_eq(f_on[i], f_off[i]);
            for (int i = 0; i < k; i++)
                dacc[i] = f_on[k + i] - f_off[k + i];
            /* M from the point masses; it must also be the library's */
            walker W = walker_of_state(&B, origin, x, locked);
            own_mass_matrix(&W, k, M);
            const hes_mech *mech = ((const hes_mech_mode *)md->data)->mech;
            ck_assert_int_eq(mech->mass(x, hes_system_params(off), Mlib, mech->data), 0);
            for (int i = 0; i < k * k; i++)
                ck_assert_msg(fabs(M[i] - Mlib[i]) < 1e-13, "%s M[%d]: own %.17g, model %.17g",
                              md->name, i, M[i], Mlib[i]);
            /* Q by virtual work: the power sum torque x relative joint rate
             * (ankle: stance leg vs ground; hip: swing thigh vs stance leg;
             * knee: shank vs thigh, whose relative rate is 0 when locked) is
             * linear in the rates, Q_i = power(unit rate i). */
            for (int i = 0; i < k; i++) {
                double w[3] = { 0, 0, 0 };
                w[i] = 1.0;
                if (locked)
                    w[2] = w[1]; /* the shank turns with the thigh */
                Q[i] = torques[c][0] * w[0] + torques[c][1] * (w[1] - w[0]) +
                       torques[c][2] * (w[2] - w[1]);
            }
            test_solve(k, M, Q); /* Q <- M^-1 Q */
            double err = 0, scale = max_abs(Q, k);
            for (int i = 0; i < k; i++)
                err = fmax(err, fabs(dacc[i] - Q[i]));
            ck_assert_msg(err < 1e-12 * fmax(1.0, scale), "%s: acceleration change vs M^-1 Q: %g",
                          md->name, err);
            /* a torque that does work in this mode changes the field */
            int works = torques[c][0] != 0 || torques[c][1] != 0 || (!locked && torques[c][2] != 0);
            if (works)
                ck_assert_msg(max_abs(dacc, k) > 1e-2, "%s: the torques change nothing", md->name);
            else
                ck_assert_msg(max_abs(dacc, k) == 0, "%s: a locked knee's torque acts", md->name);
        }
        hes_system_destroy(off);
        hes_system_destroy(on);
    }
}
END_TEST

/* The analytic Jacobian of every mechanical built-in's vector field
 * (hes_mech_field_dx) against central differences of the field, relative
 * to its largest entry, at random states with the biped's torques on. */
START_TEST(test_mechanical_builtins_field_jacobians_match_central_differences)
{
    const char *const names[] = { "knee-biped", "trot-rigid", "trot-soft" };
    unsigned seed = 3;
    for (int b = 0; b < 3; b++) {
        const hes_model *model = hes_problem_find(names[b]);
        hes_system *sys = test_system_of(model);
        ck_assert_ptr_nonnull(sys);
        if (b == 0) {
            ck_assert_int_eq(hes_system_set_param(sys, "ankle_torque", 0.25), HES_OK);
            ck_assert_int_eq(hes_system_set_param(sys, "hip_torque", -0.6), HES_OK);
            ck_assert_int_eq(hes_system_set_param(sys, "knee_torque", 0.35), HES_OK);
        }
        const double *p = hes_system_params(sys);
        for (int mode = 0; mode < model->n_modes; mode++) {
            const hes_mode *md = &model->modes[mode];
            int n = md->dim;
            ck_assert_ptr_eq((void *)md->field_dx, (void *)hes_mech_field_dx);
            for (int trial = 0; trial < 5; trial++) {
                double x[16], J[256], Jd[256], fp[16], fm[16], scale = 1, err = 0;
                for (int i = 0; i < n; i++) /* angles and heights, then rates */
                    x[i] = (i < n / 2 ? 0.4 : 2.0) * (2.0 * rand_r(&seed) / RAND_MAX - 1.0) +
                           (i < n / 2 && b > 0 && i == 0 ? 1.0 : 0.0);
                ck_assert_int_eq(md->field_dx(0.0, x, p, J, md->data), 0);
                for (int j = 0; j < n; j++) {
                    double xj = x[j], h = 1e-5;
                    x[j] = xj + h;
                    ck_assert_int_eq(md->field(0.0, x, p, fp, md->data), 0);
                    x[j] = xj - h;
                    ck_assert_int_eq(md->field(0.0, x, p, fm, md->data), 0);
                    x[j] = xj;
                    for (int i = 0; i < n; i++)
                        Jd[i + j * n] = (fp[i] - fm[i]) / (2 * h);
                }
                for (int e = 0; e < n * n; e++)
                    scale = fmax(scale, fabs(Jd[e]));
                for (int e = 0; e < n * n; e++)
                    err = fmax(err, fabs(J[e] - Jd[e]));
                ck_assert_msg(err < 1e-7 * scale, "%s, mode %s: dF/dx vs differences %g of %g",
                              names[b], md->name, err, scale);
            }
        }
        hes_system_destroy(sys);
    }
}
END_TEST

/* ------------------------------------------------------------- trotters */

static void simulate_drop(hes_system *sys, const double *x0, hes_traj *tr)
{
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 0.4;
    ck_assert_msg(hes_simulate(sys, 0, 0.0, 0.0, x0, &o, tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
}

/* Elastic impact (e = 1) of a foot at +-d on the rigid body, M = diag(m, J):
 * v+ = v - 2 M^-1 Da^T (Da v) / (Da M^-1 Da^T), Da = (1, sgn d cos theta). */
static void rigid_impact(double m, double J, double d, double theta, double sgn, double *v)
{
    double a0 = 1.0, a1 = sgn * d * cos(theta);
    double A = a0 * a0 / m + a1 * a1 / J, lam = 2.0 * (a0 * v[0] + a1 * v[1]) / A;
    v[0] -= lam * a0 / m;
    v[1] -= lam * a1 / J;
}

START_TEST(test_trotters_coupling_measure_separates_rigid_from_soft)
{
    /* rigid legs: the body couples the feet */
    hes_system *rig = test_system_of(hes_problem_find("trot-rigid"));
    ck_assert_ptr_nonnull(rig);
    const hes_model *mr = hes_system_model(rig);
    double m = param(rig, "m"), J = param(rig, "J"), d = param(rig, "d"), l = param(rig, "l"),
           g = param(rig, "g");
    const double xr[4] = { 0.6, 0.0, 0.0, 0.0 };
    hes_traj tr;
    simulate_drop(rig, xr, &tr);
    hes_simultaneous s[4];
    int n;
    ck_assert_int_eq(hes_simultaneous_find(rig, &tr, 1e-9, s, 4, &n), HES_OK);
    ck_assert_int_ge(n, 1);
    ck_assert_int_eq(s[0].event, 0);
    ck_assert_str_eq(mr->transitions[s[0].first].name, "front");
    ck_assert_str_eq(mr->transitions[s[0].second].name, "rear");
    /* the other order: alt_second (the rear foot's) first, then alt_first */
    ck_assert_str_eq(mr->transitions[s[0].alt_second].name, "rear");
    ck_assert_str_eq(mr->transitions[s[0].alt_first].name, "front");
    ck_assert_msg(fabs(s[0].dt) <= 1e-9, "dt %g", s[0].dt);
    double th = xr[1], c2 = cos(th) * cos(th);
    double want = (1 / m - d * d * c2 / J) / sqrt((1 / m + d * d * c2 / J) * (1 / m + d * d * c2 / J));
    /* the landing (closed form) and the two orders' outcomes by hand */
    double tland = sqrt(2 * (xr[0] - l) / g), v = g * tland;
    const hes_event *e0 = &tr.events[0];
    ck_assert_double_eq_tol(e0->t, tland, 1e-9);
    ck_assert_double_eq_tol(e0->x_minus[2], -v, 1e-9);
    double fr[2] = { e0->x_minus[2], e0->x_minus[3] }, rf[2] = { fr[0], fr[1] };
    rigid_impact(m, J, d, th, +1, fr);
    rigid_impact(m, J, d, th, -1, fr);
    rigid_impact(m, J, d, th, -1, rf);
    rigid_impact(m, J, d, th, +1, rf);
    double gap = fmax(fabs(fr[0] - rf[0]), fabs(fr[1] - rf[1]));
    ck_assert_msg(fabs(s[0].coupling - want) < 1e-12, "coupling %.17g, closed form %.17g",
                  s[0].coupling, want);
    ck_assert(fabs(s[0].coupling) > 0.1);
    ck_assert_int_eq(s[0].decoupled, 0);
    ck_assert_int_eq(s[0].continuous, 0);
    ck_assert_int_eq(s[0].differentiable, 0);
    ck_assert_msg(fabs(s[0].outcome_gap - gap) < 1e-9 * gap, "outcome gap %.17g, by hand %.17g",
                  s[0].outcome_gap, gap);
    /* the trajectory took front then rear: its state after both is fr */
    ck_assert_double_eq_tol(tr.events[1].x_plus[2], fr[0], 1e-9);
    ck_assert_double_eq_tol(tr.events[1].x_plus[3], fr[1], 1e-9);
    hes_traj_free(&tr);
    hes_system_destroy(rig);

    /* soft legs: the feet are decoupled through the body */
    hes_system *soft = test_system_of(hes_problem_find("trot-soft"));
    ck_assert_ptr_nonnull(soft);
    const hes_model *ms = hes_system_model(soft);
    const double xs[8] = { 0.6, 0.0, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0 };
    simulate_drop(soft, xs, &tr);
    ck_assert_int_eq(hes_simultaneous_find(soft, &tr, 1e-9, s, 4, &n), HES_OK);
    ck_assert_int_ge(n, 1);
    ck_assert_int_eq(s[0].event, 0);
    ck_assert_str_eq(ms->transitions[s[0].first].name, "front touchdown");
    ck_assert_str_eq(ms->transitions[s[0].second].name, "rear touchdown (front stance)");
    ck_assert_int_ge(s[0].alt_first, 0);
    ck_assert_int_ge(s[0].alt_second, 0);
    ck_assert_str_eq(ms->transitions[s[0].alt_second].name, "rear touchdown");
    ck_assert_str_eq(ms->transitions[s[0].alt_first].name, "front touchdown (rear stance)");
    /* the feet fall freely from y1 = y2 = 0.3 with the body */
    ck_assert_double_eq_tol(tr.events[0].t, sqrt(2 * xs[2] / param(soft, "g")), 1e-9);
    ck_assert_msg(fabs(s[0].coupling) < 1e-12, "coupling %g", s[0].coupling);
    ck_assert_int_eq(s[0].decoupled, 1);
    ck_assert(s[0].continuous);
    ck_assert(s[0].differentiable);
    ck_assert_msg(s[0].outcome_gap < 1e-12, "outcome gap %g", s[0].outcome_gap);
    ck_assert_msg(s[0].piece_gap < 1e-9, "piece gap %g", s[0].piece_gap);
    hes_traj_free(&tr);
    hes_system_destroy(soft);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("biped");
    TCase *tc = tcase_create("biped");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_knee_biped_passive_gait_is_found_and_checked);
    tcase_add_test(tc, test_knee_biped_saltation_equals_fd_of_flow_across_kneestrike_and_heelstrike);
    tcase_add_test(tc, test_knee_biped_impacts_conserve_angular_momenta);
    tcase_add_test(tc, test_knee_biped_torques_enter_as_inputs);
    tcase_add_test(tc, test_mechanical_builtins_field_jacobians_match_central_differences);
    tcase_add_test(tc, test_trotters_coupling_measure_separates_rigid_from_soft);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
