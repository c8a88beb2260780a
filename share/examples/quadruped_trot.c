/*
 * quadruped_trot.c - the closed-loop experiment of Zapolsky & Drumwright
 * (Sec. 7-8) with MuJoCo in place of Moby: the 3-D quadruped of
 * share/robots/quadruped_3d.xml trots (cycle 0.3 s, duty factor 0.75,
 * touchdowns at 0.25, 0.75, 0.75, 0.25 of the cycle for LF, RF, LH, RH,
 * step height 1.5 cm, 20 cm/s after a 1 s ramp from rest) under
 *   PD      joint PD torques alone (the baseline),
 *   ID-x    inverse dynamics with contact, x one of hes's formulations
 *           (none, no-slip, coulomb, convex, convex-no-slip), for the
 *           desired acceleration a_des + Kp e + Kd e' (the error feedback
 *           goes into the desired accelerations, as in the paper),
 *   ID(t-1) inverse dynamics with the contact forces MuJoCo applied on
 *           the previous step (the paper's sensed-force reference), and
 *   ID(t-2) with those of the step before,
 * on ground with friction 0.1 and 1.0, rigid (MuJoCo's stiffest contact,
 * solref 0.002) or compliant (solref 0.02), and on rigid-lcp ground: rigid
 * contact time-stepped by hes at 1 kHz (hes_timestep_ap, the Anitescu-Potra
 * LCP of the paper's simulator; MuJoCo gives M, h, B and the feet's
 * Jacobians and gaps only), with friction 0.1, 1 and 1e3 (the paper's
 * "infinite"), the controllers with the paper's offsets.
 * QUADRUPED_TROT_GROUND=rigid, compliant or rigid-lcp runs one ground,
 * QUADRUPED_TROT_CONTROLLER (a name as printed, e.g. ID-no-slip) one
 * controller, QUADRUPED_TROT_MU one friction.  The planner: feet on cubic
 * quintic splines (zero velocity and acceleration at both ends), landing
 * where the hip will be at mid-stance; joint targets by the legs' closed-form
 * inverse kinematics (checked against MuJoCo's forward kinematics at the
 * start).  The stance contacts given to inverse dynamics are the feet
 * MuJoCo has in contact.
 *
 * Printed per run (the paper's Tables 3-5): whether the robot stayed up
 * for the whole run, the mean joint position and velocity errors, the
 * mean |d tau / dt| and |tau|, and the mean absolute and relative error
 * between the predicted and MuJoCo's summed normal forces, and the mean
 * inverse-dynamics time per control step.
 *
 *   quadruped_trot [--seconds S] [--robot FILE] [--quick]
 * --quick: 2 s on the rigid ground (the paper's setting), PD and the
 * LCP controllers where the paper ran them: ID-coulomb at friction 0.1
 * and 1, ID-no-slip at 1e3 (its no-slip model asks for the friction the
 * ground must then have); exits nonzero unless each ID run stays up,
 * tracks the joints better than PD at its friction and predicts the
 * simulator's summed normal forces within 5 % (make check builds it with
 * -DQUADRUPED_TROT_QUICK, which
 * makes --quick the default).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

#include "hes.h"

#define NV 18
#define NU 12
#define L1 0.08
#define L2 0.08

static const double hip_x[4] = { 0.08, 0.08, -0.08, -0.08 }, hip_y[4] = { 0.06, -0.06, 0.06, -0.06 };
static const double touchdown[4] = { 0.25, 0.75, 0.75, 0.25 };
static const double cycle = 0.3, duty = 0.75, step_height = 0.015, speed = 0.2, ramp = 1.0;
static const double stand_hip = 0.5, stand_knee = -1.0;

/* ------------------------------------------------------------ the plan */

/* the base's forward position and velocity: speed reached by a smoothstep
   ramp over `ramp` seconds */
static double base_x(double t)
{
    if (t >= ramp)
        return speed * (ramp / 2 + (t - ramp));
    double s = t / ramp;       /* integral of speed (3 s^2 - 2 s^3) */
    return speed * ramp * (s * s * s - s * s * s * s / 2);
}

static double stand_height(void)
{
    return L1 * cos(stand_hip) + L2 * cos(stand_hip + stand_knee);
}

/* Leg l lifts off at t = (k + s0) cycle, s0 = touchdown - (1 - duty), and
   lands a swing time sw later, at the point under its hip at the middle of
   the stance that follows; a landing before t = 0 is the standing pose.
   In stance the foot stays where it landed; in swing it moves on quintic
   (minimum-jerk) splines, in x from point to point and in z up by
   step_height and down, with zero velocity and acceleration at liftoff
   and touchdown (the paper's planner uses velocity-clamped cubics; these
   keep the feet's accelerations continuous). */
static double landing_x(int l, double T)
{
    double st = duty * cycle;
    return T <= 0 ? hip_x[l] : base_x(T + st / 2) + hip_x[l];
}

static void foot_plan(int l, double t, double *p)
{
    double sw = (1 - duty) * cycle, s0 = touchdown[l] - (1 - duty);
    double k = floor(t / cycle - s0), lift = (k + s0) * cycle, land = lift + sw;
    p[1] = hip_y[l];
    if (t >= land) {                         /* stance */
        p[0] = landing_x(l, land);
        p[2] = 0;
        return;
    }
    double tau = (t - lift) / sw, s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
    double x0 = landing_x(l, land - cycle), x1 = landing_x(l, land), u = tau * (1 - tau);
    p[0] = x0 + (x1 - x0) * s;
    p[2] = 64 * step_height * u * u * u;
}

/* closed-form inverse kinematics of leg l for a foot at p relative to its
   hip (abduction about x, then hip and knee about y, links along -z) */
static int leg_ik(const double *p, double *q3)
{
    double w = -sqrt(p[1] * p[1] + p[2] * p[2]);
    q3[0] = atan2(p[1], -p[2]);
    double u = p[0], D = (u * u + w * w - L1 * L1 - L2 * L2) / (2 * L1 * L2);
    if (D > 1 || D < -1)
        return -1;
    q3[2] = -acos(D);
    q3[1] = atan2(-u, -w) - atan2(L2 * sin(q3[2]), L1 + L2 * cos(q3[2]));
    return 0;
}

/* the planned configuration at t (base: x forward, level, at stand height) */
static int plan_q(double t, double z_off, double *q)
{
    memset(q, 0, sizeof(double) * NV);
    q[0] = base_x(t);
    q[2] = z_off;
    double hz = stand_height();
    for (int l = 0; l < 4; l++) {
        double p[3], rel[3];
        foot_plan(l, t, p);
        rel[0] = p[0] - (q[0] + hip_x[l]);
        rel[1] = p[1] - hip_y[l];
        rel[2] = p[2] - hz;
        if (leg_ik(rel, q + 6 + 3 * l))
            return -1;
    }
    return 0;
}

/* velocity and acceleration of the plan by central differences in time */
static void plan_state(double t, double z_off, double *q, double *qd, double *qdd)
{
    const double h = 1e-4;
    double qp[NV], qm[NV];
    plan_q(t, z_off, q);
    plan_q(t + h, z_off, qp);
    plan_q(t > h ? t - h : 0, z_off, qm);
    double hm = t > h ? h : t;
    for (int i = 0; i < NV; i++) {
        if (hm > 0) {
            qd[i] = (qp[i] - qm[i]) / (h + hm);
            qdd[i] = 2 * ((qp[i] - q[i]) / h - (q[i] - qm[i]) / hm) / (h + hm);
        } else {
            qd[i] = (qp[i] - q[i]) / h;
            qdd[i] = 0;
        }
    }
}

/* --------------------------------------------------------- the runs */

typedef enum { C_PD = -3, C_SENSED2 = -2, C_SENSED = -1 } controller_extra;

typedef struct {
    int up;
    double t_end, pos_err, vel_err, dtau, tau, f_abs, f_rel, us;
    int infeasible, failed;      /* control steps */
} run_stats;

static const char *controller_name(int c)
{
    static char buf[32];
    if (c == C_PD)
        return "PD";
    if (c == C_SENSED)
        return "ID(t-1)";
    if (c == C_SENSED2)
        return "ID(t-2)";
    snprintf(buf, sizeof buf, "ID-%s", hes_invdyn_method_name((hes_invdyn_method)c));
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The grounds: MuJoCo's stiffest contact, its compliant one, and rigid
 * contact time-stepped by hes (hes_timestep_ap: the paper's simulator's
 * model, MuJoCo only for M, h, B and the feet's Jacobians and gaps). */
enum { G_RIGID, G_COMPLIANT, G_LCP, N_GROUNDS };
static const char *const ground_name[N_GROUNDS] = { "rigid", "compliant", "rigid-lcp" };

/* One step of the rigid ground: v+ from the Anitescu-Potra LCP over dt with
 * the torques tau held, q += dt v+; the feet's forces (world z, x, y rows,
 * impulse / dt) into sensed and their normal sum into *fsim. */
static int lcp_step(const hes_robot_dynamics *dyn, double *qpos, double *qvel, const double *tau,
                    double dt, double *sensed, double *fsim, hes_error *err)
{
    double force[NV], Jn[4 * NV], Jt[8 * NV], vp[NV], p[12];
    for (int i = 0; i < NV; i++) {
        double s = -dyn->h[i];
        for (int j = 0; j < NU; j++)
            s += dyn->B[i + (size_t)j * NV] * tau[j];
        force[i] = s;
        for (int r = 0; r < 4; r++)
            Jn[r + 4 * i] = dyn->J[r + (size_t)i * 12];
        for (int r = 0; r < 8; r++)
            Jt[r + 8 * i] = dyn->J[4 + r + (size_t)i * 12];
    }
    hes_timestep_problem pb = { NV, 4, 2, dyn->M, Jn, Jt, dyn->mu, dyn->phi, qvel, force, dt };
    if (hes_timestep_ap(&pb, vp, p, NULL, err) != HES_OK)
        return -1;
    for (int i = 0; i < NV; i++) {
        qvel[i] = vp[i];
        qpos[i] += dt * vp[i];
    }
    *fsim = 0;
    for (int r = 0; r < 12; r++)
        sensed[r] = p[r] / dt;
    for (int l = 0; l < 4; l++)
        *fsim += sensed[l];
    return 0;
}

static int run(const char *file, int controller, double mu, int ground, double seconds,
               run_stats *out)
{
    int compliant = ground == G_COMPLIANT;
    const char *names[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    hes_robot_contact hc[4];
    for (int i = 0; i < 4; i++)
        hc[i] = (hes_robot_contact){ names[i], mu };
    hes_robot *robot = NULL;
    hes_error msg;
    if (hes_robot_read(file, hc, 4, &robot, &msg) != HES_OK) {
        fprintf(stderr, "quadruped_trot: %s\n", msg.message);
        return -1;
    }
    mjModel *m = mj_copyModel(NULL, hes_robot_mujoco_model(robot));
    mjData *d = mj_makeData(m);
    int floor_g = mj_name2id(m, mjOBJ_GEOM, "floor"), foot_g[4];
    for (int l = 0; l < 4; l++)
        foot_g[l] = mj_name2id(m, mjOBJ_GEOM, names[l]);
    for (int g = 0; g < m->ngeom; g++) {
        m->geom_friction[3 * g] = mu;
        if (g == floor_g || g == foot_g[0] || g == foot_g[1] || g == foot_g[2] || g == foot_g[3])
            m->geom_solref[2 * g] = compliant ? 0.02 : 2 * m->opt.timestep;
    }
    m->opt.disableflags |= mjDSBL_CLAMPCTRL;     /* report, do not clip, torques */
    double z_off = stand_height() - 0.16, q[NV], qd[NV], qdd[NV];
    plan_state(0, z_off, q, qd, qdd);
    memcpy(d->qpos, q, sizeof q);
    /* the inverse kinematics against MuJoCo's forward kinematics */
    mj_forward(m, d);
    for (int l = 0; l < 4; l++) {
        double p[3];
        foot_plan(l, 0, p);
        int s = mj_name2id(m, mjOBJ_SITE, names[l]);
        for (int k = 0; k < 3; k++)
            if (fabs(d->site_xpos[3 * s + k] - p[k]) > 1e-9) {
                fprintf(stderr, "quadruped_trot: inverse kinematics of %s off by %g\n",
                        names[l], fabs(d->site_xpos[3 * s + k] - p[k]));
                return -1;
            }
    }
    const double kp = 900, kd = 60;          /* acceleration feedback, 1/s^2, 1/s */
    const double tc = 0.02;                  /* s: see the offsets below */
    const double kp_pd = 20, kd_pd = 0.4;    /* PD torques, N m / rad, N m s / rad */
    double dt = m->opt.timestep, tau_prev[NU] = { 0 }, sensed[12] = { 0 }, sensed_old[12] = { 0 };
    int steps = (int)(seconds / dt + 0.5), n = 0, nf = 0;
    hes_invdyn *ws[16] = { 0 };
    memset(out, 0, sizeof *out);
    out->up = 1;
    double fsum_sim = 0;
    for (int k = 0; k < steps; k++) {
        double t = k * dt;
        plan_state(t, z_off, q, qd, qdd);
        double a_cmd[NV], tau[NU];
        for (int i = 0; i < NV; i++)
            a_cmd[i] = qdd[i] + kp * (q[i] - d->qpos[i]) + kd * (qd[i] - d->qvel[i]);
        /* the feet in contact: MuJoCo's, or on the rigid ground those at
           the ground (to the time step's rounding) */
        int act[4] = { 0 };
        hes_robot_dynamics dyn;
        if (ground == G_LCP) {
            if (hes_robot_dynamics_at(robot, d->qpos, d->qvel, &dyn, &msg) != HES_OK)
                return -1;
            /* the contacts of the simulator's step: the feet at the ground,
               and those that reach it within the step (phi + dt J_n v <= 0,
               to the step's rounding) */
            for (int l = 0; l < 4; l++) {
                double Nv = 0;
                for (int i = 0; i < NV; i++)
                    Nv += dyn.J[l + (size_t)i * 12] * d->qvel[i];
                act[l] = dyn.phi[l] <= 1e-6 || dyn.phi[l] + dt * Nv <= 1e-6;
            }
        }
        for (int c = 0; c < d->ncon && ground != G_LCP; c++)
            for (int l = 0; l < 4; l++)
                if ((d->contact[c].geom1 == foot_g[l] || d->contact[c].geom2 == foot_g[l]))
                    act[l] = 1;
        double fpred = 0;
        int have_pred = 0;
        if (controller == C_PD) {
            for (int j = 0; j < NU; j++)
                tau[j] = kp_pd * (q[6 + j] - d->qpos[6 + j]) + kd_pd * (qd[6 + j] - d->qvel[6 + j]);
        } else {
            if (ground != G_LCP &&
                hes_robot_dynamics_at(robot, d->qpos, d->qvel, &dyn, &msg) != HES_OK)
                return -1;
            /* on MuJoCo's grounds the rigid model's contacts stay where the
               soft contact holds them: no penetration to correct (phi = 0);
               on the rigid ground the gaps are the feet's */
            double zero_phi[4] = { 0 }, h2[NV], J[12 * NV], b[12], mus[4];
            hes_robot_dynamics dyn_id = dyn;
            if (ground != G_LCP)
                dyn_id.phi = zero_phi;
            int set = 0, nc = 0;
            hes_invdyn_method method = (hes_invdyn_method)controller;
            if (controller == C_SENSED || controller == C_SENSED2) {
                /* known contact forces (one or two steps old): into the
                   bias, no contacts left */
                const double *fs = controller == C_SENSED ? sensed : sensed_old;
                for (int i = 0; i < NV; i++) {
                    double s = dyn.h[i];
                    for (int r = 0; r < 12; r++)
                        s -= dyn.J[r + (size_t)i * 12] * fs[r];
                    h2[i] = s;
                }
                dyn_id.h = h2;
                method = HES_INVDYN_NONE;
                memset(act, 0, sizeof act);
            }
            for (int l = 0; l < 4; l++)
                if (act[l])
                    set |= 1 << l, nc++;
            hes_invdyn_problem pb;
            /* the rigid ground's step holds the Jacobians over the step (the
               paper's constant Jacobians): no drift J' v there */
            hes_invdyn_problem_robot(&dyn_id, act, d->qvel, a_cmd, dt, ground != G_LCP, J, b,
                                     mus, &pb);
            /* MuJoCo's contacts are soft: a stance foot moves a little.  The
               paper's offsets stop that motion within one period (J v / dt),
               which here asks for large forces every step; it is damped over
               the soft contact's own time constant instead (tc).  The rigid
               ground keeps the paper's offsets. */
            for (int r = 0; r < nc * 3 && ground != G_LCP; r++) {
                double Jv = 0;
                for (int i = 0; i < NV; i++)
                    Jv += J[r + (size_t)i * nc * 3] * d->qvel[i];
                b[r] += Jv / tc - Jv / dt;
            }
            if (!ws[set])
                hes_invdyn_new(NV, NU, nc, 2, &ws[set], NULL);
            /* the paper's controller: only the joints' accelerations are asked; the
               base's is the model's prediction (tol_eom < 0) */
            hes_invdyn_options o = { .method = method, .stage2 = 1, .tol_eom = -1 };
            hes_invdyn_result res;
            double t0 = now();
            hes_status st = hes_invdyn_solve(ws[set], &pb, &o, &res, &msg);
            out->infeasible += st == HES_EINFEASIBLE;
            out->failed += st != HES_OK && st != HES_EINFEASIBLE;
            out->us += (now() - t0) * 1e6;
            if (st == HES_OK || st == HES_EINFEASIBLE) {
                memcpy(tau, res.tau, sizeof tau);
                for (int c = 0; c < nc && method != HES_INVDYN_NONE; c++)
                    fpred += res.f[c];
                have_pred = method != HES_INVDYN_NONE;
            } else {            /* no solution: hold the last torques */
                memcpy(tau, tau_prev, sizeof tau);
            }
        }
        double fsim = 0;
        memcpy(sensed_old, sensed, sizeof sensed);
        memset(sensed, 0, sizeof sensed);
        if (ground == G_LCP) {
            if (lcp_step(&dyn, d->qpos, d->qvel, tau, dt, sensed, &fsim, &msg)) {
                fprintf(stderr, "quadruped_trot: rigid ground at t = %g: %s\n", t, msg.message);
                out->up = 0;
                break;
            }
        } else {
            memcpy(d->ctrl, tau, sizeof tau);
            mj_step(m, d);
        }
        /* MuJoCo's contact forces of this step, per foot, world frame */
        for (int c = 0; c < d->ncon && ground != G_LCP; c++) {
            double f6[6];
            mj_contactForce(m, d, c, f6);
            const mjContact *con = &d->contact[c];
            for (int l = 0; l < 4; l++)
                if (con->geom1 == foot_g[l] || con->geom2 == foot_g[l]) {
                    /* the force on the foot in world coordinates: frame rows
                       are normal, tangents; geom1 receives -f */
                    double sign = con->geom2 == foot_g[l] ? 1 : -1, fw[3] = { 0 };
                    for (int a = 0; a < 3; a++)
                        for (int r = 0; r < 3; r++)
                            fw[a] += sign * con->frame[3 * r + a] * f6[r];
                    sensed[l] += fw[2];            /* rows: normal (z), x, y */
                    sensed[4 + l] += fw[0];
                    sensed[8 + l] += fw[1];
                    fsim += fw[2];
                }
        }
        /* statistics */
        double pe = 0, ve = 0, dtau = 0, ta = 0;
        for (int j = 0; j < NU; j++) {
            pe += fabs(q[6 + j] - d->qpos[6 + j]);
            ve += fabs(qd[6 + j] - d->qvel[6 + j]);
            dtau += fabs(tau[j] - tau_prev[j]) / dt;
            ta += fabs(tau[j]);
        }
        out->pos_err += pe / NU;
        out->vel_err += ve / NU;
        if (k > 0)
            out->dtau += dtau / NU;
        out->tau += ta / NU;
        memcpy(tau_prev, tau, sizeof tau);
        if (have_pred) {
            out->f_abs += fabs(fpred - fsim);
            fsum_sim += fsim;
            nf++;
        }
        n++;
        double roll = d->qpos[5], pitch = d->qpos[4];
        if (d->qpos[2] + 0.16 < 0.06 || fabs(roll) > 0.8 || fabs(pitch) > 0.8) {
            out->up = 0;
            break;
        }
    }
    out->t_end = n * dt;
    out->pos_err /= n, out->vel_err /= n, out->dtau /= n > 1 ? n - 1 : 1, out->tau /= n;
    out->us /= n;
    if (nf > 0) {
        out->f_abs /= nf;
        out->f_rel = out->f_abs / (fsum_sim / nf);
    } else
        out->f_abs = out->f_rel = -1;
    for (int s = 0; s < 16; s++)
        hes_invdyn_destroy(ws[s]);
    mj_deleteData(d);
    mj_deleteModel(m);
    hes_robot_destroy(robot);
    return 0;
}

/* --plan FILE.csv: two cycles of the trot at full speed (t from 1.2 s,
 * every 2.5 ms) in the format of `hes invdyn --trajectory`: t, the
 * coordinates by name, and the planned stance of each foot */
static int write_plan(const char *path, const char *robot_file)
{
    hes_robot *r = NULL;
    hes_error msg;
    if (hes_robot_read(robot_file, NULL, 0, &r, &msg) != HES_OK) {
        fprintf(stderr, "quadruped_trot: %s\n", msg.message);
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        hes_robot_destroy(r);
        return 1;
    }
    const char *feet[4] = { "lf_foot", "rf_foot", "lh_foot", "rh_foot" };
    fprintf(f, "t");
    for (int i = 0; i < NV; i++)
        fprintf(f, ",%s", hes_robot_coordinate(r, i));
    for (int l = 0; l < 4; l++)
        fprintf(f, ",stance:%s", feet[l]);
    fprintf(f, "\n");
    double z_off = stand_height() - 0.16, q[NV];
    for (int k = 0; k <= 240; k++) {
        double t = 1.2 + 0.0025 * k, p[3];
        plan_q(t, z_off, q);
        fprintf(f, "%.4f", t);
        for (int i = 0; i < NV; i++)
            fprintf(f, ",%.12g", q[i]);
        for (int l = 0; l < 4; l++) {
            foot_plan(l, t, p);
            fprintf(f, ",%d", p[2] == 0);
        }
        fprintf(f, "\n");
    }
    hes_robot_destroy(r);
    return fclose(f) != 0;
}

/* MuJoCo's warnings (an unstable simulation, as when a controller's
 * torques blow up) to stderr rather than to MUJOCO_LOG.TXT in the current
 * directory */
static void warn(const char *text)
{
    fprintf(stderr, "quadruped_trot: MuJoCo: %s\n", text);
}

int main(int argc, char **argv)
{
    mju_user_warning = warn;
    double seconds = 10;
#ifdef QUADRUPED_TROT_QUICK
    int quick = 1;          /* as make check builds it */
    seconds = 2;
#else
    int quick = 0;
#endif
    const char *top = getenv("top_srcdir");
    char file[4096];
    snprintf(file, sizeof file, "%s/share/robots/quadruped_3d.xml", top ? top : ".");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--robot") == 0 && i + 1 < argc)
            snprintf(file, sizeof file, "%s", argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1, seconds = 2;
        else if (strcmp(argv[i], "--plan") == 0 && i + 1 < argc)
            return write_plan(argv[++i], file);
        else {
            fprintf(stderr, "usage: quadruped_trot [--seconds S] [--robot FILE] [--quick] "
                    "[--plan FILE.csv]\n");
            return 2;
        }
    }
    int all[] = { C_PD, HES_INVDYN_NONE, HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB,
                  HES_INVDYN_CONVEX, HES_INVDYN_CONVEX_NO_SLIP, C_SENSED, C_SENSED2 };
    int few[] = { C_PD, HES_INVDYN_NO_SLIP, HES_INVDYN_COULOMB };
    const int *ctl = quick ? few : all;
    int nctl = quick ? 3 : 8;
    /* friction 0.1 and 1; on the rigid ground also 1e3, the paper's
       "infinite" friction (no foot slides: the LCP holds the tangential
       impulse to eps mu of the normal one, 2.2e-13 here) */
    double frictions[3] = { 0.1, 1.0, 1e3 };
    const char *only = getenv("QUADRUPED_TROT_GROUND");
    const char *only_c = getenv("QUADRUPED_TROT_CONTROLLER"), *only_mu = getenv("QUADRUPED_TROT_MU");
    printf("%-9s %-5s %-18s %-9s %9s %9s %11s %8s %10s %8s %8s %6s %6s\n", "ground", "mu", "controller",
           "stays up", "pos err", "vel err", "E|dtau/dt|", "E|tau|", "|f err| N", "f err %",
           "us/step", "infeas", "failed");
    int fail = 0;
    for (int g = quick ? G_LCP : 0; g < N_GROUNDS; g++) {
        if (only && strcmp(only, ground_name[g]) != 0)
            continue;
        for (int fi = 0; fi < (g == G_LCP ? 3 : 2); fi++) {
            run_stats pd = { 0 };
            for (int c = 0; c < nctl; c++) {
                if ((only_c && strcmp(only_c, controller_name(ctl[c])) != 0) ||
                    (only_mu && atof(only_mu) != frictions[fi]))
                    continue;
                /* --quick: the LCP controllers where the paper ran them */
                if (quick && ((ctl[c] == HES_INVDYN_NO_SLIP && fi != 2) ||
                              (ctl[c] == HES_INVDYN_COULOMB && fi == 2)))
                    continue;
                run_stats s;
                if (run(file, ctl[c], frictions[fi], g, seconds, &s))
                    return 1;
                char up[16];
                snprintf(up, sizeof up, s.up ? "yes" : "%.2f s", s.t_end);
                printf("%-9s %-5g %-18s %-9s %9.4f %9.4f %11.2f %8.4f ", ground_name[g],
                       frictions[fi], controller_name(ctl[c]), up, s.pos_err, s.vel_err, s.dtau,
                       s.tau);
                if (s.f_abs >= 0)
                    printf("%10.4f %7.2f%% ", s.f_abs, 100 * s.f_rel);
                else
                    printf("%10s %8s ", "-", "-");
                printf("%8.1f %6d %6d\n", s.us, s.infeasible, s.failed);
                fflush(stdout);
                if (ctl[c] == C_PD)
                    pd = s;
                else if (quick && (!s.up || !(s.pos_err < pd.pos_err) ||
                                   !(s.f_rel >= 0 && s.f_rel < 0.05))) {
                    fprintf(stderr, "quadruped_trot: %s at friction %g should stay up, track "
                            "the joints better than PD and predict the simulator's normal "
                            "forces within 5%%\n", controller_name(ctl[c]), frictions[fi]);
                    fail = 1;
                }
            }
        }
    }
    return fail;
}
