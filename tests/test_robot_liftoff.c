/*
 * test_robot_liftoff.c - a foot held by its force lifts off where that force
 * reaches zero, flies and lands again, and a robot model's joint feedback
 * about a periodic reference.
 *
 * The hopper: a torso (mass M) on slides x and z, a foot (mass m) below
 * it on a sprung slide (stiffness k, rest length s0: the spring pushes the
 * foot down with k c, c = q_leg - s0 its compression, foot height z +
 * q_leg).  Standing on its held foot the torso is a harmonic oscillator,
 * M z'' = -M g - k (z + s0), and the ground pushes the foot with N = m g +
 * k c; from rest at z_e - A it lifts off where N = 0, at
 *     t_lo = acos((z_e - z_lo) / A) / w,  z_e = -s0 - M g / k,
 *     z_lo = -s0 + m g / k,  w = sqrt(k / M).
 * There the foot's force, hence its acceleration, is zero: it leaves the
 * ground at third order, on its guard to second order, where rounding
 * would have it cross back at once; the simulation must fly on (its
 * centre of mass on the parabola of gravity alone) and land later at a
 * transversal rate.  Checked against the closed forms above.  Landed, the
 * stopped foot is pushed by N = m g + k c; where the spring pulls it up
 * harder than its weight (N < 0), holding it would pull the ground, and
 * the landing is refused, naming the foot.  From several compressions,
 * both outcomes, each where N says.
 *
 * Sliding contacts (below, with their closed forms): a block that sticks,
 * then slips and slides under a tracking motor; a puck sliding in the
 * plane.
 *
 * The joint feedback (hes_robot_control): a pendulum's motor adds kp (r(t)
 * - q) + kd (r'(t) - q') with r a two-harmonic Fourier series; its
 * acceleration at random states and times equals that of the same robot
 * with the torque, computed here from the series, as a constant parameter.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

#define HM 2.0     /* torso */
#define FM 0.1     /* foot */
#define K 400.0
#define S0 -0.5
#define G 9.81

static const char hopper_xml[] =
    "<mujoco model=\"hopper\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0 0 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"torso\">\n"
    "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0.01 0.01 0.01\"/>\n"
    "      <body name=\"foot\">\n"
    "        <joint name=\"leg\" type=\"slide\" axis=\"0 0 1\" stiffness=\"400\""
    " springref=\"-0.5\"/>\n"
    "        <inertial pos=\"0 0 0\" mass=\"0.1\" diaginertia=\"0.001 0.001 0.001\"/>\n"
    "        <site name=\"foot\" pos=\"0 0 0\"/>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n";

static const char pendulum_xml[] =
    "<mujoco model=\"pendulum\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0 0 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"arm\" pos=\"0 0 1\">\n"
    "      <joint name=\"swing\" type=\"hinge\" axis=\"0 1 0\" damping=\"0.05\"/>\n"
    "      <inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.02 0.02 0.02\"/>\n"
    "      <site name=\"tip\" pos=\"0 0 -1\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator><motor name=\"swing\" joint=\"swing\"/></actuator>\n"
    "</mujoco>\n";

/* the robot of xml, written to the temporary file name (a mkstemps
 * template ending in .xml, which the caller removes once its model is made:
 * a model's copies read it), its site "foot" the one contact with friction
 * mu (mu < 0: every site, the default friction) (NULL without MuJoCo) */
static hes_robot *robot_of(const char *xml, char *name, double mu)
{
    int fd = mkstemps(name, 4);
    ck_assert_int_ge(fd, 0);
    ck_assert(write(fd, xml, strlen(xml)) == (ssize_t)strlen(xml));
    close(fd);
    hes_robot *r = NULL;
    hes_error err;
    hes_robot_contact foot = { "foot", mu };
    hes_status st = hes_robot_read(name, mu < 0 ? NULL : &foot, mu < 0 ? 0 : 1, &r, &err);
    if (st == HES_ESOLVER)
        return NULL;   /* no MuJoCo */
    ck_assert_msg(st == HES_OK, "%s", err.message);
    return r;
}

/* The hopper's model: "stance" holding its foot by its force, "flight",
 * a lift-off and a plastic touchdown between them (NULL without MuJoCo). */
static hes_model *hopper_model(void)
{
    char name[] = "/tmp/hes_hopper_XXXXXX.xml";
    hes_robot *r = robot_of(hopper_xml, name, -1);
    if (!r) {
        unlink(name);
        return NULL;
    }
    static const int foot[] = { 0 };
    static const hes_robot_mode_spec modes[] = {
        { .name = "stance", .pinned = -1, .n_holds = 1, .holds = foot },
        { .name = "flight", .pinned = -1 },
    };
    static const hes_robot_transition_spec trs[] = {
        { .name = "liftoff", .from = 0, .to = 1, .kind = HES_MECH_RELEASE, .constraint = 0 },
        { .name = "touchdown", .from = 1, .to = 0, .kind = HES_MECH_ACTIVATE,
          .constraint = 0, .n_separate = 0 },
    };
    hes_robot_model_spec sp = { .name = "hopper", .n_modes = 2, .modes = modes,
                                .n_transitions = 2, .transitions = trs };
    hes_model *m;
    hes_error err;
    hes_status made = hes_robot_model_new(r, &sp, &m, &err);
    unlink(name);
    ck_assert_msg(made == HES_OK, "%s", err.message);
    return m;
}

START_TEST(test_the_foot_lifts_off_flies_and_lands)
{
    hes_model *m = hopper_model();
    if (!m)
        return;
    hes_error err;
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    /* from rest, compressed by A below equilibrium */
    double w = sqrt(K / HM), ze = -S0 - HM * G / K, zlo = -S0 + FM * G / K;
    static const double As[] = { 0.1, 0.06, 0.07, 0.08, 0.09, 0.11, 0.12 };
    int n_held = 0, n_pulled = 0;
    for (int ia = 0; ia < (int)(sizeof As / sizeof *As); ia++) {
        double A = As[ia];
        double tlo = acos((ze - zlo) / A) / w;
        double x0[6] = { 0, ze - A, -(ze - A), 0, 0, 0 };   /* x, z, leg (foot at 0), rates */
        hes_sim_options o;
        hes_sim_options_init(&o);
        o.n_section = 1;
        o.section = 1;                    /* until the landing */
        hes_traj tr;
        hes_status ran = hes_simulate(sys, 0, 0, 0, x0, &o, &tr);
        ck_assert_int_ge(tr.n_events, 1);
        ck_assert_int_eq(tr.n_phases, 2);
        ck_assert_int_eq(tr.events[0].transition, 0);
        const hes_event *lo = &tr.events[0];
        const hes_phase *fl = &tr.phases[1];
        ck_assert_msg(fabs(lo->t - tlo) < 1e-8, "lift-off at %.12f, closed form %.12f", lo->t, tlo);
        ck_assert_msg(fabs(lo->x_minus[1] - zlo) < 1e-8, "torso at lift-off %.12f, closed form %.12f",
                      lo->x_minus[1], zlo);
        /* the landing: the foot stopped, the ground pushes it with m g + k c;
           where the spring pulls it up harder than its weight, it leaves at
           once and holding it is refused, naming the foot */
        double N = FM * G + K * (fl->x1[2] - S0);
        if (N > 0) {
            ck_assert_msg(ran == HES_OK, "%s", hes_system_errmsg(sys));
            ck_assert_int_eq(tr.n_events, 2);
            ck_assert_int_eq(tr.events[1].transition, 1);
        } else {
            ck_assert_int_eq(ran, HES_EMODEL);
            ck_assert_int_eq(tr.n_events, 1);
            ck_assert_msg(strstr(hes_system_errmsg(sys), "'foot', which the mode holds, would "
                                 "pull"), "%s", hes_system_errmsg(sys));
    }
    n_held += N > 0;
    n_pulled += N <= 0;
    /* the flight: the centre of mass on gravity's parabola until the landing */
    double zc0 = (HM * lo->x_plus[1] + FM * (lo->x_plus[1] + lo->x_plus[2])) / (HM + FM);
    double vc0 = (HM * lo->x_plus[4] + FM * (lo->x_plus[4] + lo->x_plus[5])) / (HM + FM);
    double dt = fl->t1 - lo->t;
    double zc = (HM * fl->x1[1] + FM * (fl->x1[1] + fl->x1[2])) / (HM + FM);
    ck_assert_msg(dt > 0.01, "the flight lasted %g s", dt);
    ck_assert_msg(fabs(zc - (zc0 + vc0 * dt - 0.5 * G * dt * dt)) < 1e-9,
                  "centre of mass at landing %.12f, parabola %.12f", zc,
                  zc0 + vc0 * dt - 0.5 * G * dt * dt);
    /* the landing is transversal: the foot comes down at a resolved speed */
    double foot_v = fl->x1[4] + fl->x1[5];
    ck_assert_msg(foot_v < -1e-3, "the foot lands at %g m/s", foot_v);
    printf("test_robot_liftoff: from %.2f below: lift-off at %.9f s (closed form %.9f), "
           "landing at %.6f s, foot at %.3f m/s, ground force after it %.4f N (%s)\n", A,
           lo->t, tlo, fl->t1, foot_v, N, N > 0 ? "held" : "refused");
    hes_traj_free(&tr);
    }
    /* both outcomes were met, each as the closed form says */
    ck_assert_int_gt(n_held, 0);
    ck_assert_int_gt(n_pulled, 0);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* A start state whose held foot would pull is refused: the hopper
 * standing, the ground's force on its foot N = m g + k c (c the spring's
 * compression), started once with N = +1 N and once with N = -1 N. */
START_TEST(test_a_pulling_start_is_refused)
{
    hes_model *m = hopper_model();
    if (!m)
        return;
    hes_error err;
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 0.01;
    for (int sign = -1; sign <= 1; sign += 2) {
        double c = (sign - FM * G) / K;   /* N = m g + k c = sign */
        double z = -(S0 + c);             /* the foot at 0: z + leg = 0, leg = S0 + c */
        double x0[6] = { 0, z, -z, 0, 0, 0 };
        hes_traj tr;
        hes_status st = hes_simulate(sys, 0, 0, 0, x0, &o, &tr);
        if (sign > 0)
            ck_assert_msg(st == HES_OK, "%s", hes_system_errmsg(sys));
        else {
            ck_assert_int_eq(st, HES_EMODEL);
            ck_assert_msg(strstr(hes_system_errmsg(sys), "start state of 'stance'") &&
                          strstr(hes_system_errmsg(sys), "'foot', which the mode holds, would "
                                 "pull"), "%s", hes_system_errmsg(sys));
        }
        hes_traj_free(&tr);
    }
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

START_TEST(test_joint_feedback_about_a_periodic_reference)
{
    char nc[] = "/tmp/hes_pendulum_XXXXXX.xml", nt[] = "/tmp/hes_pendulum_XXXXXX.xml";
    hes_robot *rc = robot_of(pendulum_xml, nc, -1), *rt = robot_of(pendulum_xml, nt, -1);
    if (!rc || !rt) {
        hes_robot_destroy(rc);
        hes_robot_destroy(rt);
        unlink(nc);
        unlink(nt);
        return;
    }
    const double T = 0.7, kp = 30, kd = 1.5;
    static const double coef[5] = { 0.1, 0.3, -0.2, 0.05, 0.08 };
    hes_robot_control ctl = { .period = T, .kp = kp, .kd = kd, .n_harmonics = 2,
                              .reference = coef };
    static const hes_robot_mode_spec modes[] = { { .name = "swinging", .pinned = -1 } };
    hes_robot_model_spec sc = { .name = "tracking", .n_modes = 1, .modes = modes,
                                .control = &ctl },
                         st = { .name = "torque", .n_modes = 1, .modes = modes };
    hes_model *mc, *mt;
    hes_error err;
    hes_status made_c = hes_robot_model_new(rc, &sc, &mc, &err);
    ck_assert_msg(made_c == HES_OK, "%s", err.message);
    hes_status made_t = hes_robot_model_new(rt, &st, &mt, &err);
    unlink(nc);
    unlink(nt);
    ck_assert_msg(made_t == HES_OK, "%s", err.message);
    /* the parameters: the motor's constant torque, then period, kp, kd */
    ck_assert_int_eq(mc->n_params, 4);
    ck_assert_int_eq(mt->n_params, 1);
    ck_assert_str_eq(mc->params[1].name, "period");
    ck_assert_str_eq(mc->params[2].name, "kp");
    ck_assert_str_eq(mc->params[3].name, "kd");
    double pc[4], pt[1];
    for (int i = 0; i < 4; i++)
        pc[i] = mc->params[i].value;
    ck_assert(pc[1] == T && pc[2] == kp && pc[3] == kd && pc[0] == 0);
    srand48(7);
    for (int trial = 0; trial < 20; trial++) {
        double t = 3 * drand48(), x[2] = { drand48() - 0.5, 4 * drand48() - 2 };
        double w = 2 * M_PI / T, ref = coef[0], dref = 0;
        for (int k = 1; k <= 2; k++) {
            ref += coef[2 * k - 1] * cos(k * w * t) + coef[2 * k] * sin(k * w * t);
            dref += k * w * (coef[2 * k] * cos(k * w * t) - coef[2 * k - 1] * sin(k * w * t));
        }
        double fc[2], ft[2];
        pt[0] = kp * (ref - x[0]) + kd * (dref - x[1]);
        ck_assert_int_eq(mc->modes[0].field(t, x, pc, fc, mc->modes[0].data), 0);
        ck_assert_int_eq(mt->modes[0].field(t, x, pt, ft, mt->modes[0].data), 0);
        ck_assert_msg(fabs(fc[1] - ft[1]) < 1e-12 * (1 + fabs(ft[1])),
                      "t %g: acceleration %.15g, with the torque %.15g", t, fc[1], ft[1]);
    }
    hes_model_destroy(mc);
    hes_model_destroy(mt);
}
END_TEST

/* The free quadruped (share/robots/quadruped_free.xml) standing on its
 * four feet held by their forces, its knees then tracking a trot's
 * reference (diagonal pairs half a period apart, the hind legs leading;
 * modes of every set of feet, touchdowns and lift-offs between them),
 * from rest at the reference.  A foot's normal force falls while its
 * tangential force does not: with friction 100 it would slide, refused as
 * a slip (the forces there, every cone unchecked, say so); no-slip, at
 * zero normal force letting it go would have it sink into the ground (the
 * free flight of the other feet's mode says so) and holding it would
 * pull: refused. */
START_TEST(test_a_quadruped_foot_lifts_off)
{
    char path[1024];
    double mu = _i ? INFINITY : 100;   /* Coulomb's, then no-slip feet */
    hes_robot_contact feet[4] = { { "lf_foot", mu }, { "rf_foot", mu }, { "lh_foot", mu },
                                  { "rh_foot", mu } };
    hes_robot *r = NULL;
    hes_error err;
    hes_status st = hes_robot_read(test_robot_file(path, sizeof path, "quadruped_free.xml"), feet,
                                   4, &r, &err);
    if (st == HES_ESOLVER)
        return;
    ck_assert_msg(st == HES_OK, "%s", err.message);
    hes_robot_mode_spec modes[16];
    hes_robot_transition_spec trs[64];
    int holds[16][4], nt = 0;
    char names[16][8], tnames[64][16];
    for (int s = 0; s < 16; s++) {
        int n = 0;
        for (int f = 0; f < 4; f++)
            if (s >> f & 1)
                holds[s][n++] = 2 * f;   /* contact f's normal */
        snprintf(names[s], sizeof names[s], "feet%d", s);
        modes[s] = (hes_robot_mode_spec){ .name = names[s], .pinned = -1, .n_holds = n,
                                          .holds = holds[s] };
        for (int f = 0; f < 4; f++) {
            int on = s >> f & 1;
            snprintf(tnames[nt], sizeof tnames[nt], "f%d_%d", s, f);
            trs[nt] = (hes_robot_transition_spec){ .name = tnames[nt], .from = s,
                                                   .to = s ^ (1 << f),
                                                   .kind = on ? HES_MECH_RELEASE
                                                              : HES_MECH_ACTIVATE,
                                                   .constraint = 2 * f, .n_separate = 0 };
            nt++;
        }
    }
    /* knees: k0 - a/2 - (a/2) cos(w t + phase), the others held at the stance */
    /* knees: k0 - a/2 - (a/2) cos(w t + phase); hips held where the start
       is at rest at the reference with every foot on the ground at one
       depth Z below the hips (so that none pulls: a start the feedback
       would tear off the ground is refused) */
    const double k0 = -1.0, a = 0.3, lead = 0.3, ph[4] = { 0, M_PI, M_PI - lead, -lead };
    double coef[12 * 3] = { 0 }, kn[4], hp[4], Z = 1;
    for (int f = 0; f < 4; f++) {
        kn[f] = k0 - a / 2 - a / 2 * cos(ph[f]);
        Z = fmin(Z, 0.16 * cos(kn[f] / 2));
    }
    for (int f = 0; f < 4; f++) {
        double *hip = coef + 3 * (3 * f + 1), *knee = coef + 3 * (3 * f + 2);
        hp[f] = acos(Z / (0.16 * cos(kn[f] / 2))) - kn[f] / 2;   /* 0.08 (cos h + cos(h + k)) = Z */
        hip[0] = hp[f];
        knee[0] = k0 - a / 2, knee[1] = -a / 2 * cos(ph[f]), knee[2] = a / 2 * sin(ph[f]);
    }
    hes_robot_control ctl = { .period = 0.3, .kp = 3, .kd = 0.05, .n_harmonics = 1,
                              .reference = coef };
    hes_robot_model_spec sp = { .name = "quadruped-trotting", .n_modes = 16, .modes = modes,
                                .n_transitions = nt, .transitions = trs, .control = &ctl };
    hes_model *m;
    ck_assert_msg(hes_robot_model_new(r, &sp, &m, &err) == HES_OK, "%s", err.message);
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    double x[37] = { 0 };
    x[2] = Z;
    x[3] = 1;
    for (int f = 0; f < 4; f++)
        x[7 + 3 * f + 1] = hp[f], x[7 + 3 * f + 2] = kn[f];
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 3.0;   /* a long horizon: long steps, which met the rounding's root */
    hes_traj tr;
    st = hes_simulate(sys, 15, 0, 0, x, &o, &tr);
    if (_i) {
        /* no-slip: letting the foot go, it would be pressed back at once
           (its tangential force gone, its acceleration points into the
           ground), holding it would pull: refused.  Independently: the
           flight of the other feet' mode from the event state, integrated
           for h, takes that foot into the ground by about a h^2 / 2 */
        ck_assert_int_eq(st, HES_EMODEL);
        ck_assert_int_eq(tr.n_events, 0);
        const char *msg = hes_system_errmsg(sys);
        ck_assert_msg(strstr(msg, "let go at rest by the event, would be pressed back"), "%s", msg);
        int f = -1;
        for (int c = 0; c < 4; c++)
            if (strstr(msg, feet[c].site))
                f = c;
        ck_assert_int_ge(f, 0);
        const hes_phase *last = &tr.phases[tr.n_phases - 1];
        /* there its normal force is zero, its tangential one is not (what
           any finite friction would have it slide on first) */
        double lam[12], pp[32];
        for (int i = 0; i < m->n_params; i++)
            pp[i] = m->params[i].value;
        const hes_mech_mode *md = m->modes[15].data;
        ck_assert_int_eq(hes_mech_mode_state(md, last->t1, last->x1, pp, NULL, NULL, lam, NULL),
                         HES_OK);
        const hes_mech_constraint *kc = &md->mech->constraints[2 * f];
        double fn = 0, ft2 = 0;
        for (int i = 0; i < md->n_active; i++) {
            if (md->active[i] == 2 * f)
                fn = lam[i];
            for (int j = 0; j < kc->n_friction_rows; j++)
                if (md->active[i] == kc->friction_rows[j])
                    ft2 += lam[i] * lam[i];
        }
        ck_assert_msg(fabs(fn) < 1e-8 && sqrt(ft2) > 0.1, "%s at the release: normal %g N, "
                      "tangential %g N", feet[f].site, fn, sqrt(ft2));
        int to = 15 ^ (1 << f), k = to * 4 + f;   /* its touchdown from there */
        ck_assert_int_eq(trs[k].kind, HES_MECH_ACTIVATE);
        ck_assert_int_eq(trs[k].from, to);
        double p[32], x1[37], g[2];
        for (int i = 0; i < m->n_params; i++)
            p[i] = m->params[i].value;
        const double h[2] = { 1e-3, 2e-3 };
        for (int j = 0; j < 2; j++) {
            ck_assert_msg(hes_variational(sys, to, last->t1, h[j], last->x1, x1, NULL) == HES_OK,
                          "%s", hes_system_errmsg(sys));
            ck_assert_int_eq(m->transitions[k].guard(last->t1 + h[j], x1, p, &g[j],
                                                     m->transitions[k].data), 0);
        }
        /* g = a h^2 / 2 + O(h^3): the two estimates agree to first order */
        double a1 = 2 * g[0] / (h[0] * h[0]), a2 = 2 * g[1] / (h[1] * h[1]);
        ck_assert_msg(a1 < 0 && a2 < 0 && fabs(a1 - a2) < 0.5 * fabs(a1),
                      "the released foot's height after 1 and 2 ms: %g, %g", g[0], g[1]);
        printf("test_robot_liftoff: the no-slip quadruped's %s, let go at %.6f s (normal force "
               "%.1e N, tangential %.3g N), would sink at %.3g m/s^2 (free flight of the "
               "others): refused\n", feet[f].site, last->t1, fn, sqrt(ft2), a1);
        hes_traj_free(&tr);
        hes_system_destroy(sys);
        hes_model_destroy(m);
        return;
    }
    /* under this crude feedback a foot's normal force falls while its
       tangential force does not: past friction 100 it would slide, refused
       as a slip */
    ck_assert_int_eq(st, HES_EMODEL);
    ck_assert_msg(strstr(hes_system_errmsg(sys), "exceeds mu times its normal one"), "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_events, 0);
    int f = -1;
    for (int c = 0; c < 4; c++)
        if (strstr(hes_system_errmsg(sys), feet[c].site))
            f = c;
    ck_assert_msg(f >= 0, "%s names no foot", hes_system_errmsg(sys));
    printf("test_robot_liftoff: the quadruped's %s would slide (friction 100): refused\n",
           feet[f].site);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* A block on level ground (slides x and z, mass m, a foot at its centre,
 * friction mu), its motor on x tracking x_r(t) = A sin(w t) by kp (x_r - x)
 * alone.  Held sticking, the ground bears the motor's force until kp A
 * sin(w t) = mu m g, at t_s = asin(mu m g / (kp A)) / w; then the block
 * slides, m x'' = kp (A sin(w t) - x) - mu m g (x' > 0), whose solution
 * from rest at t_s is, with W^2 = kp / m and C = W^2 A / (W^2 - w^2),
 *     x = a cos W (t - t_s) + b sin W (t - t_s) + C sin(w t) - mu g / W^2,
 *     a = -(C sin(w t_s) - mu g / W^2),  b = -C w cos(w t_s) / W. */
static const char block_xml[] =
    "<mujoco model=\"block\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0 0 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"block\">\n"
    "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>\n"
    "      <site name=\"foot\" pos=\"0 0 0\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator><motor name=\"push\" joint=\"x\"/></actuator>\n"
    "</mujoco>\n";

/* A robot of one foot (site "foot", friction mu) in the modes "stick"
 * (0) and "slide" (1), with a transition of the given kind between them
 * (slip: 0 -> 1, stick: 1 -> 0) and the control ctl (may be NULL); NULL
 * without MuJoCo. */
static hes_model *one_foot_model(const char *xml, double mu, hes_mech_event kind,
                                 const hes_robot_control *ctl)
{
    char name[] = "/tmp/hes_foot_XXXXXX.xml";
    hes_robot *r = robot_of(xml, name, mu);
    if (!r) {
        unlink(name);
        return NULL;
    }
    static const int held[] = { 0 };
    static const hes_robot_mode_spec modes[] = {
        { .name = "stick", .pinned = -1, .n_holds = 1, .holds = held },
        { .name = "slide", .pinned = -1, .n_holds = 1, .holds = held, .n_slides = 1,
          .slides = held },
    };
    int slip = kind == HES_MECH_SLIP;
    hes_robot_transition_spec tr = { .name = slip ? "slip" : "stop", .from = slip ? 0 : 1,
                                     .to = slip ? 1 : 0, .kind = kind, .constraint = 0 };
    hes_robot_model_spec sp = { .name = "one-foot", .n_modes = 2, .modes = modes,
                                .n_transitions = 1, .transitions = &tr, .control = ctl };
    hes_model *m;
    hes_error err;
    hes_status st = hes_robot_model_new(r, &sp, &m, &err);
    unlink(name);
    ck_assert_msg(st == HES_OK, "%s", err.message);
    return m;
}

/* The one-foot robot of xml under motors tracking a periodic reference
 * (period 1 s, one harmonic: coef, its a0, a1, b1 per motor) by kp, as a
 * system; *m the model (NULL when MuJoCo is missing: then NULL). */
static hes_system *one_foot_system(const char *xml, double mu, hes_mech_event kind,
                                   const double *coef, double kp, hes_model **m)
{
    hes_robot_control ctl = { .period = 1.0, .kp = kp, .kd = 0, .n_harmonics = 1,
                              .reference = coef };
    if (!(*m = one_foot_model(xml, mu, kind, &ctl)))
        return NULL;
    hes_error err;
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(*m, &sys, &err), HES_OK);
    return sys;
}

/* Simulates sys from x0 in mode `mode` to t_end and checks the run's one
 * event against its closed-form time ts (to tol); tr keeps the run. */
static void one_event_run(hes_system *sys, int mode, const double *x0, double t_end, double ts,
                          double tol, const char *what, hes_traj *tr)
{
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = t_end;
    ck_assert_msg(hes_simulate(sys, mode, 0, 0, x0, &o, tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr->n_events, 1);
    ck_assert_msg(fabs(tr->events[0].t - ts) < tol, "%s at %.12f, closed form %.12f", what,
                  tr->events[0].t, ts);
}

START_TEST(test_the_block_sticks_then_slides)
{
    const double mu = 0.5, g = 9.81, kp = 100, A = 0.1, w = 2 * M_PI;
    static const double coef[3] = { 0, 0, 0.1 };   /* A sin(w t) */
    hes_model *m;
    hes_system *sys = one_foot_system(block_xml, mu, HES_MECH_SLIP, coef, kp, &m);
    if (!sys)
        return;
    double W = sqrt(kp), ts = asin(mu * g / (kp * A)) / w, C = W * W * A / (W * W - w * w);
    double a = -(C * sin(w * ts) - mu * g / (W * W)), b = -C * w * cos(w * ts) / W;
    double x0[4] = { 0, 0, 0, 0 };
    hes_traj tr;
    one_event_run(sys, 0, x0, ts + 0.25, ts, 1e-8, "slip", &tr);
    const double *xe = tr.phases[tr.n_phases - 1].x1;
    double t = ts + 0.25, tau = t - ts;
    double x = a * cos(W * tau) + b * sin(W * tau) + C * sin(w * t) - mu * g / (W * W);
    double v = -a * W * sin(W * tau) + b * W * cos(W * tau) + C * w * cos(w * t);
    ck_assert_msg(fabs(xe[0] - x) < 1e-8 && fabs(xe[2] - v) < 1e-8,
                  "after sliding: x %.12f v %.12f, closed form %.12f %.12f", xe[0], xe[2], x, v);
    ck_assert_msg(fabs(xe[1]) < 1e-9, "the block left the ground: z %g", xe[1]);
    /* sliding, the ground bears the weight, and friction mu times it */
    double p[4], lam[1], q[2], qd[2], acc[4];
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    ck_assert_int_eq(hes_mech_mode_state(m->modes[1].data, t, xe, p, q, qd, lam, NULL), HES_OK);
    ck_assert_msg(fabs(lam[0] - g) < 1e-9, "normal force %.12g, weight %.12g", lam[0], g);
    ck_assert_int_eq(m->modes[1].field(t, xe, p, acc, m->modes[1].data), 0);
    double want = kp * (A * sin(w * t) - xe[0]) - mu * g;
    ck_assert_msg(fabs(acc[2] - want) < 1e-9, "sliding acceleration %.12g, Coulomb %.12g",
                  acc[2], want);
    printf("test_robot_liftoff: the block slips at %.10f s (closed form %.10f), x after "
           "%.2f s of sliding %.10f (%.10f)\n", tr.events[0].t, ts, tau, xe[0], x);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* The same block with a no-slip foot (mu infinite): it sticks whatever
 * the motor's force, the ground bearing the weight and all of kp A sin(w
 * t) (the closed form, long past where mu 0.5 slips); a mode that would
 * slide it is refused. */
START_TEST(test_a_no_slip_foot_sticks)
{
    char name[] = "/tmp/hes_block_XXXXXX.xml";
    const double g = 9.81, kp = 100, A = 0.1, w = 2 * M_PI;
    hes_robot *r = robot_of(block_xml, name, INFINITY);
    if (!r) {
        unlink(name);
        return;
    }
    hes_error err;
    static const int held[] = { 0 };
    static const hes_robot_mode_spec modes[] = {
        { .name = "stick", .pinned = -1, .n_holds = 1, .holds = held },
        { .name = "slide", .pinned = -1, .n_holds = 1, .holds = held, .n_slides = 1,
          .slides = held },
    };
    static const double coef[3] = { 0, 0, 0.1 };   /* A sin(w t) */
    hes_robot_control ctl = { .period = 1.0, .kp = kp, .kd = 0, .n_harmonics = 1,
                              .reference = coef };
    hes_robot_model_spec sp = { .name = "block", .n_modes = 2, .modes = modes,
                                .control = &ctl };
    hes_model *m;
    ck_assert_int_eq(hes_robot_model_new(r, &sp, &m, &err), HES_EINVAL);
    ck_assert_msg(strstr(err.message, "'foot' is declared no-slip: it cannot slide"), "%s",
                  err.message);
    /* the model took the robot, failing too: read it again */
    hes_robot_contact foot = { "foot", INFINITY };
    ck_assert_int_eq(hes_robot_read(name, &foot, 1, &r, &err), HES_OK);
    sp.n_modes = 1;
    hes_status st = hes_robot_model_new(r, &sp, &m, &err);
    unlink(name);
    ck_assert_msg(st == HES_OK, "%s", err.message);
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    double x0[4] = { 0, 0, 0, 0 }, p[4], lam[3], q[2], qd[2], worst = 0;
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    hes_sim_options o;
    hes_sim_options_init(&o);
    for (int k = 1; k <= 8; k++) {
        o.t_end = 0.1 * k;
        hes_traj tr;
        ck_assert_msg(hes_simulate(sys, 0, 0, 0, x0, &o, &tr) == HES_OK, "%s",
                      hes_system_errmsg(sys));
        ck_assert_int_eq(tr.n_events, 0);
        const double *xe = tr.phases[0].x1;
        ck_assert_msg(fabs(xe[0]) < 1e-12 && fabs(xe[2]) < 1e-12, "the block moved: x %g v %g",
                      xe[0], xe[2]);
        ck_assert_int_eq(hes_mech_mode_state(m->modes[0].data, o.t_end, xe, p, q, qd, lam, NULL),
                         HES_OK);
        /* normal, then the tangential row: the ground's force opposes the motor's */
        worst = fmax(worst, fmax(fabs(lam[0] - g), fabs(fabs(lam[1]) -
                                                        fabs(kp * A * sin(w * o.t_end)))));
        hes_traj_free(&tr);
    }
    ck_assert_msg(worst < 1e-9, "forces off the closed form by %g", worst);
    printf("test_robot_liftoff: the no-slip block holds kp A = %g N against its weight %g N "
           "(forces to %.1e)\n", kp * A, g, worst);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* A puck (slides x, y and z, mass 1) sliding on level ground with
 * friction mu from the velocity (0.6, 0.8): two tangential rows, the
 * friction -mu m g along the unit velocity u, which keeps its direction:
 *     x = x0 + v0 t - mu g u t^2 / 2,  v = v0 - mu g u t   (until it stops). */
static const char puck_xml[] =
    "<mujoco model=\"puck\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0 0 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"puck\">\n"
    "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <joint name=\"y\" type=\"slide\" axis=\"0 1 0\"/>\n"
    "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>\n"
    "      <site name=\"foot\" pos=\"0 0 0\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n";

START_TEST(test_a_puck_slides_in_the_plane)
{
    char name[] = "/tmp/hes_puck_XXXXXX.xml";
    const double mu = 0.3, g = 9.81;
    hes_robot *r = robot_of(puck_xml, name, mu);
    if (!r) {
        unlink(name);
        return;
    }
    hes_error err;
    hes_status st;
    static const int held[] = { 0 };
    static const hes_robot_mode_spec modes[] = {
        { .name = "slide", .pinned = -1, .n_holds = 1, .holds = held, .n_slides = 1,
          .slides = held },
    };
    hes_robot_model_spec sp = { .name = "puck", .n_modes = 1, .modes = modes };
    hes_model *m;
    st = hes_robot_model_new(r, &sp, &m, &err);
    unlink(name);
    ck_assert_msg(st == HES_OK, "%s", err.message);
    const hes_mech_mode *md = m->modes[0].data;
    ck_assert_int_eq(md->n_active, 1);   /* the normal alone: both tangents slide */
    ck_assert_int_eq(md->mech->constraints[0].n_friction_rows, 2);
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    double x0[6] = { 0, 0, 0, 0.6, 0.8, 0 }, t = 0.25;
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = t;
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, 0, 0, 0, x0, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    const double *xe = tr.phases[tr.n_phases - 1].x1;
    double worst = 0;
    for (int k = 0; k < 2; k++) {
        double u = x0[3 + k];   /* |v0| = 1 */
        worst = fmax(worst, fabs(xe[k] - (x0[3 + k] * t - 0.5 * mu * g * u * t * t)));
        worst = fmax(worst, fabs(xe[3 + k] - (x0[3 + k] - mu * g * u * t)));
    }
    ck_assert_msg(worst < 1e-9 && fabs(xe[2]) < 1e-9, "the puck against Coulomb's closed "
                  "form: %g (z %g)", worst, xe[2]);
    printf("test_robot_liftoff: the puck slides as the closed form to %.1e\n", worst);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* A sled whose foot is heavier along x than along y: a body (mass 1) on
 * slides x and z carries one (mass 0.5) on a slide y, the foot at its
 * centre, friction mu 0.5 against the weight N = 1.5 g.  Motors track A_x
 * sin(w t) and A_y sin(w t) by kp; held, the foot bears the force kp sin(w
 * t) (A_x, A_y) until its size reaches mu N, at t_s = asin(mu N / (kp |A|))
 * / w, and then slides from rest.  The velocity grows along M^-1 F, not F:
 * the sliding direction turns from the onset on, the case whose direction
 * dynamics, at a rate 1 / |v_t|, stalled the integrator.  Checked against
 * a second method: the same sled under a regularised friction, -mu N v /
 * sqrt(|v|^2 + eps^2) (sticking, it creeps by about eps), integrated by
 * classical Runge-Kutta with steps well inside its stiffness, at eps 1e-4,
 * 1e-5 and 1e-6: hes's motion is Coulomb's, the limit eps -> 0, so the
 * differences fall with eps. */
static const char sled_xml[] =
    "<mujoco model=\"sled\">\n"
    "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    "  <option gravity=\"0 0 -9.81\"/>\n"
    "  <worldbody>\n"
    "    <body name=\"base\">\n"
    "      <joint name=\"x\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "      <joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>\n"
    "      <body name=\"runner\">\n"
    "        <joint name=\"y\" type=\"slide\" axis=\"0 1 0\"/>\n"
    "        <inertial pos=\"0 0 0\" mass=\"0.5\" diaginertia=\"0.01 0.01 0.01\"/>\n"
    "        <site name=\"foot\" pos=\"0 0 0\"/>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator><motor name=\"px\" joint=\"x\"/><motor name=\"py\" joint=\"y\"/></actuator>\n"
    "</mujoco>\n";

#define SLED_MX 1.5
#define SLED_MY 0.5
#define SLED_KP 100.0
#define SLED_AX 0.1
#define SLED_AY 0.08
#define SLED_MU 0.5

/* the regularised sled, s = (x, y, vx, vy), to time t1 from rest at 0 */
static void sled_regularised(double eps, double t1, double *s)
{
    const double w = 2 * M_PI, N = SLED_MX * 9.81;
    double h = 0.25 * eps * SLED_MY / (SLED_MU * N);   /* well inside the stiffness */
    int n = (int)ceil(t1 / h);
    h = t1 / n;
    memset(s, 0, 4 * sizeof *s);
    for (int i = 0; i < n; i++) {
        double k[4][4], y[4], t = i * h;
        for (int st = 0; st < 4; st++) {
            double c = st == 0 ? 0 : st == 3 ? 1 : 0.5, tt = t + c * h;
            for (int j = 0; j < 4; j++)
                y[j] = s[j] + (st ? c * h * k[st - 1][j] : 0);
            double r = sqrt(y[2] * y[2] + y[3] * y[3] + eps * eps);
            k[st][0] = y[2];
            k[st][1] = y[3];
            k[st][2] = (SLED_KP * (SLED_AX * sin(w * tt) - y[0]) - SLED_MU * N * y[2] / r) / SLED_MX;
            k[st][3] = (SLED_KP * (SLED_AY * sin(w * tt) - y[1]) - SLED_MU * N * y[3] / r) / SLED_MY;
        }
        for (int j = 0; j < 4; j++)
            s[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
    }
}

START_TEST(test_a_sled_starts_to_slide_and_turns)
{
    /* the motors px, py: A sin(w t) each (a0, a1, b1) */
    static const double coef[6] = { 0, 0, SLED_AX, 0, 0, SLED_AY };
    hes_model *m;
    hes_system *sys = one_foot_system(sled_xml, SLED_MU, HES_MECH_SLIP, coef, SLED_KP, &m);
    if (!sys)
        return;
    const double N = SLED_MX * 9.81, A = hypot(SLED_AX, SLED_AY);
    const double ts = asin(SLED_MU * N / (SLED_KP * A)) / (2 * M_PI), t1 = ts + 0.15;
    double x0[6] = { 0 };   /* x, z, y and their rates */
    hes_traj tr;
    one_event_run(sys, 0, x0, t1, ts, 1e-8, "slip", &tr);
    const double *xe = tr.phases[tr.n_phases - 1].x1;
    double ours[4] = { xe[0], xe[2], xe[3], xe[5] }, ref[3][4], dev[3] = { 0, 0, 0 };
    const double eps[3] = { 1e-4, 1e-5, 1e-6 };
    for (int e = 0; e < 3; e++) {
        sled_regularised(eps[e], t1, ref[e]);
        for (int j = 0; j < 4; j++)
            dev[e] = fmax(dev[e], fabs(ours[j] - ref[e][j]));
    }
    /* the direction turned: the velocity is not along the force at onset */
    double turn = fabs(atan2(ours[3], ours[2]) - atan2(SLED_AY, SLED_AX));
    ck_assert_msg(turn > 0.05, "the sliding direction turned by %g rad only", turn);
    ck_assert_msg(dev[2] < 5e-6 && dev[2] < 0.3 * dev[1] && dev[1] < 0.3 * dev[0],
                  "against the regularised sled: %g (eps 1e-4), %g (eps 1e-5), %g (eps 1e-6)",
                  dev[0], dev[1], dev[2]);
    printf("test_robot_liftoff: the sled slips at %.10f s (closed form %.10f), its direction "
           "turns by %.3f rad; against regularised friction %.1e (eps 1e-4), %.1e (1e-5), "
           "%.1e (1e-6)\n", tr.events[0].t, ts, turn, dev[0], dev[1], dev[2]);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* The derivative of a slide that starts from rest: the sled at rest in its
 * sliding mode with the motors' force, kp A cos(w t), above mu N from the
 * start.  Along the perturbations a slide from rest can have (positions:
 * its tangential velocity stays zero), the flow's derivative through the
 * onset, where the sliding direction's Jacobian is stiff (mu N |W| / eps),
 * equals central differences of the full simulation. */
START_TEST(test_the_derivative_of_a_slide_from_rest)
{
    static const double coef[6] = { 0, SLED_AX, 0, 0, SLED_AY, 0 };   /* A cos(w t) */
    hes_model *m;
    hes_system *sys = one_foot_system(sled_xml, SLED_MU, HES_MECH_SLIP, coef, SLED_KP, &m);
    if (!sys)
        return;
    const double T = 0.05, h = 1e-6;
    double x0[6] = { 0 }, p[8] = { 0 };   /* x, z, y and their rates */
    const hes_mode *md = &m->modes[1];
    ck_assert(m->n_params <= 8 && md->local && md->tdim == 4);
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    hes_flow f;
    ck_assert_msg(hes_flow_jacobian(sys, 1, x0, T, &f) == HES_OK, "%s", hes_system_errmsg(sys));
    ck_assert_int_eq(f.n, 4);   /* tangent coordinates: the normal is held */
    const double *x1 = f.traj.phases[f.traj.n_phases - 1].x1;
    double worst = 0, big = 0;
    static const int cols[2] = { 0, 2 };   /* x and y */
    for (int c = 0; c < 2; c++) {
        double end[2][4], dir[4], xp[6] = { 0 };
        xp[cols[c]] = h;   /* the perturbation in the mode's tangent coordinates */
        ck_assert_int_eq(md->local(xp, x0, p, dir, md->data), 0);
        for (int sg = 0; sg < 2; sg++) {
            memset(xp, 0, sizeof xp);
            xp[cols[c]] = sg ? -h : h;
            hes_sim_options o;
            hes_sim_options_init(&o);
            o.t_end = T;
            hes_traj tr;
            ck_assert_msg(hes_simulate(sys, 1, 0, 0, xp, &o, &tr) == HES_OK, "%s",
                          hes_system_errmsg(sys));
            ck_assert_int_eq(md->local(tr.phases[tr.n_phases - 1].x1, x1, p, end[sg], md->data), 0);
            hes_traj_free(&tr);
        }
        for (int i = 0; i < 4; i++) {
            double fd = (end[0][i] - end[1][i]) / (2 * h), an = 0;
            for (int j = 0; j < 4; j++)
                an += f.jac[i + j * 4] * dir[j] / h;
            big = fmax(big, fabs(fd));
            worst = fmax(worst, fabs(fd - an));
        }
    }
    ck_assert_msg(big > 0.1 && worst < 1e-6 * (1 + big), "the slide's derivative against "
                  "central differences: %g (largest entry %g)", worst, big);
    printf("test_robot_liftoff: a slide from rest, its derivative against central differences "
           "to %.1e (largest entry %.2f)\n", worst, big);
    hes_flow_free(&f);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* A slide may not start from rest with its force inside the cone: the
 * sled at rest at t = 0, its motors' force kp A sin(0) = 0, refused in its
 * sliding mode naming the foot, and accepted in its sticking one. */
START_TEST(test_a_slide_from_rest_inside_the_cone_is_refused)
{
    static const double coef[6] = { 0, 0, SLED_AX, 0, 0, SLED_AY };   /* A sin(w t) */
    hes_model *m;
    hes_system *sys = one_foot_system(sled_xml, SLED_MU, HES_MECH_SLIP, coef, SLED_KP, &m);
    if (!sys)
        return;
    double x0[6] = { 0 };
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 0.01;
    hes_traj tr;
    ck_assert_int_eq(hes_simulate(sys, 1, 0, 0, x0, &o, &tr), HES_EMODEL);
    ck_assert_msg(strstr(hes_system_errmsg(sys), "'foot', which the mode slides, is at rest "
                                                 "with its friction force inside the cone"),
                  "%s", hes_system_errmsg(sys));
    hes_traj_free(&tr);
    ck_assert_msg(hes_simulate(sys, 0, 0, 0, x0, &o, &tr) == HES_OK, "%s", hes_system_errmsg(sys));
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

/* Sliding to a stop: the puck, from (0.6, 0.8) m/s (_i = 1), and the block
 * (one tangential row: its z slide, x along the ground; _i = 0) from 1
 * m/s, decelerate by mu g and stop at t* = |v0| / (mu g), at x* = v0 |v0|
 * / (2 mu g); there they stick (a transition "stick", taken where the
 * speed has fallen to HES_MECH_STICK_SPEED) and stay. */
START_TEST(test_sliding_comes_to_rest_and_sticks)
{
    const double mu = 0.5, g = 9.81;
    hes_model *m = one_foot_model(_i ? puck_xml : block_xml, mu, HES_MECH_STICK, NULL);
    if (!m)
        return;
    hes_error err;
    hes_system *sys;
    ck_assert_int_eq(hes_system_new(m, &sys, &err), HES_OK);
    /* the block: x, z and rates; the puck: x, y, z and rates */
    double x0[6] = { 0 }, v0[2] = { _i ? 0.6 : 1.0, _i ? 0.8 : 0 };
    int nv = _i ? 3 : 2;
    x0[nv] = v0[0];
    if (_i)
        x0[nv + 1] = v0[1];
    /* the event where the speed has fallen to HES_MECH_STICK_SPEED (1 + |q'|),
       |q'| that speed itself */
    double sp0 = hypot(v0[0], v0[1]), ts = sp0 / (mu * g),
           te = (sp0 - HES_MECH_STICK_SPEED * (1 + HES_MECH_STICK_SPEED)) / (mu * g);
    hes_traj tr;
    one_event_run(sys, 1, x0, ts + 0.2, te, 1e-9, "stops", &tr);
    const double *xe = tr.phases[tr.n_phases - 1].x1;
    double worst = 0;
    for (int k = 0; k < (_i ? 2 : 1); k++) {
        worst = fmax(worst, fabs(xe[k] - v0[k] * sp0 / (2 * mu * g)));
        worst = fmax(worst, fabs(xe[nv + k]));
    }
    ck_assert_msg(worst < 1e-8, "at rest after the stop: off the closed form by %g", worst);
    printf("test_robot_liftoff: the %s sticks at %.10f s (closed form %.10f, at rest at "
           "%.10f) and rests as the closed form to %.1e\n", _i ? "puck" : "block",
           tr.events[0].t, te, ts, worst);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_liftoff");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_the_foot_lifts_off_flies_and_lands);
    tcase_add_test(tc, test_joint_feedback_about_a_periodic_reference);
    tcase_add_loop_test(tc, test_a_quadruped_foot_lifts_off, 0, 2);
    tcase_add_test(tc, test_the_block_sticks_then_slides);
    tcase_add_test(tc, test_a_no_slip_foot_sticks);
    tcase_add_test(tc, test_a_pulling_start_is_refused);
    tcase_add_test(tc, test_a_puck_slides_in_the_plane);
    tcase_add_test(tc, test_a_sled_starts_to_slide_and_turns);
    tcase_add_test(tc, test_the_derivative_of_a_slide_from_rest);
    tcase_add_test(tc, test_a_slide_from_rest_inside_the_cone_is_refused);
    tcase_add_loop_test(tc, test_sliding_comes_to_rest_and_sticks, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
