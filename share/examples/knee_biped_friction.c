/*
 * knee_biped_friction.c - the friction the knee biped's gaits need at the
 * stance foot.  The built-in knee biped is a pinned walker: its
 * stance foot is the origin of its coordinates, so the ground reaction is
 * not one of its constraint forces.  It is Newton's law for the walker's
 * point masses, F = sum_k m_k r_k'' - m g with r_k = sum_i c_ki e(th_i),
 * e(th) = (-sin th, cos th):
 *     F = sum_i C_i (e'(th_i) th_i'' - e(th_i) th_i'^2) + (0, m g),
 * C_i = sum_k m_k c_ki the mass moments along each segment (problems/
 * knee_biped.c: C_1 = ms a1 + mt (ls + a2) + (mh + mt + ms) L; unlocked
 * C_2 = -(mt b2 + ms lt), C_3 = -ms b1; locked C_2 = -(mt b2 + ms (lt +
 * b1))), the accelerations from the model's vector field.  Its normal and
 * tangential parts against the slope give the ratio |f_t| / f_n.
 *
 *   knee_biped_friction GAIT.json...   the largest ratio over each gait's
 *                                      nodes (gaits of `hes trajopt -o`)
 *   knee_biped_friction                the passive gait (the built-in orbit),
 *        sampled by RK4 along its phases, with a check: in the locked
 *        phase the same force is the stance constraints' force of the
 *        floating walker of the heelstrike (a different model: its own
 *        mass matrix with the hip position free, the foot held through the
 *        heelstrike's lift as a chart; hes_mech_mode_state), to 1e-9 of
 *        the weight.  Exits nonzero if the check fails (make
 *        check runs it so).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"

enum { P_MH, P_MT, P_MS, P_A1, P_B1, P_A2, P_B2, P_G, P_SLOPE };

/* The ground reaction (normal, tangential) at state x of a mode with k
 * angles (3 unlocked, 2 locked), its field xd, parameters p. */
static void reaction(const double *p, int k, const double *x, const double *xd, double *fn,
                     double *ft)
{
    double mh = p[P_MH], mt = p[P_MT], ms = p[P_MS], a1 = p[P_A1], b1 = p[P_B1];
    double a2 = p[P_A2], b2 = p[P_B2], g = p[P_G], s = p[P_SLOPE];
    double ls = a1 + b1, lt = a2 + b2, L = ls + lt, m = mh + 2 * mt + 2 * ms;
    double C[3] = { ms * a1 + mt * (ls + a2) + (mh + mt + ms) * L,
                    k == 3 ? -(mt * b2 + ms * lt) : -(mt * b2 + ms * (lt + b1)), -ms * b1 };
    double F[2] = { 0, m * g };
    for (int i = 0; i < k; i++) {
        double th = x[i], w = x[k + i], al = xd[k + i];
        F[0] += C[i] * (-cos(th) * al + sin(th) * w * w);
        F[1] += C[i] * (-sin(th) * al - cos(th) * w * w);
    }
    *fn = F[0] * sin(s) + F[1] * cos(s);
    *ft = F[0] * cos(s) - F[1] * sin(s);
}

static int field(const hes_model *m, int mode, double t, const double *x, const double *p,
                 double *xd)
{
    const hes_mode *md = &m->modes[mode];
    return md->field(t, x, p, xd, md->data ? md->data : m->data);
}

static int gaits(const hes_model *m, int n, char **paths)
{
    for (int a = 0; a < n; a++) {
        hes_gait g;
        hes_error msg;
        if (hes_gait_read(paths[a], m, &g, &msg) != HES_OK) {
            fprintf(stderr, "knee_biped_friction: %s\n", msg.message);
            return 1;
        }
        double p[64], worst = 0, at = 0, tph = 0, minfn = INFINITY;
        memcpy(p, g.params, sizeof(double) * (size_t)g.n_params);
        for (int ph = 0; ph < g.n_phases; ph++) {
            const hes_gait_phase *P = &g.phases[ph];
            int d = m->modes[P->mode].dim;
            for (int i = 0; i < P->nodes; i++) {
                const double *x = P->x + (size_t)i * d;
                double xd[16], fn, ft, t = P->duration * i / (P->nodes - 1);
                for (int j = 0; j < g.n_inputs; j++)
                    p[g.inputs[j]] = P->u[(size_t)(P->u_rows > 1 ? i : 0) * g.n_inputs + j];
                if (field(m, P->mode, t, x, p, xd))
                    return 1;
                reaction(p, d / 2, x, xd, &fn, &ft);
                minfn = fmin(minfn, fn);
                if (fabs(ft) / fn > worst)
                    worst = fabs(ft) / fn, at = tph + t;
            }
            tph += P->duration;
        }
        printf("%s (%s, psi %.4f): friction needed %.4f at t = %.3f of %.3f s; smallest "
               "normal force %.3f N\n", paths[a], g.objective ? g.objective : "?", g.psi, worst,
               at, tph, minfn);
        hes_gait_free(&g);
    }
    return 0;
}

/* The heelstrike's lift (the hip at L e(th1) above the stance foot) as a
 * chart of the floating walker with its stance foot held: its second
 * derivative along z', D^2 lift [z', z'] = -L e(th1) th1'^2. */
static int lift_acc(const double *z, const double *zd, const double *p, double *out, void *d)
{
    double L = p[P_A1] + p[P_B1] + p[P_A2] + p[P_B2];
    (void)d;
    out[0] = L * sin(z[0]) * zd[0] * zd[0];
    out[1] = -L * cos(z[0]) * zd[0] * zd[0];
    out[2] = out[3] = 0;
    return 0;
}

int main(int argc, char **argv)
{
    const hes_model *m = hes_problem_find("knee-biped");
    if (!m)
        return 1;
    if (argc > 1)
        return gaits(m, argc - 1, argv + 1);
    hes_system *sys = NULL;
    hes_analysis an;
    if (hes_system_new(m, &sys, NULL) != HES_OK || hes_analyze(sys, 0, &an) != HES_OK) {
        fprintf(stderr, "knee_biped_friction: the passive orbit was not found\n");
        return 1;
    }
    double p[64];
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    /* the floating walker of the heelstrike, its stance foot held */
    int th = hes_model_transition_index(m, "heelstrike");
    const hes_mech_transition *hs = m->transitions[th].data;
    static const int stance[2] = { 0, 1 };     /* stance_normal, stance_tangential */
    hes_mech_mode floating = { hs->mech, 2, stance, 2, hs->lift, hs->lift_dz, lift_acc, NULL,
                               NULL, NULL, 0, 0, NULL, 0, NULL, NULL };
    double worst = 0, at = 0, check = 0, weight = p[P_G] * (p[P_MH] + 2 * p[P_MT] + 2 * p[P_MS]);
    int checked = 0, fail = 0;
    for (int ph = 0; ph < an.orbit.traj.n_phases; ph++) {
        const hes_phase *P = &an.orbit.traj.phases[ph];
        int d = m->modes[P->mode].dim, k = d / 2, steps = 400;
        double x[16], h = (P->t1 - P->t0) / steps;
        memcpy(x, P->x0, sizeof(double) * (size_t)d);
        for (int s = 0; s <= steps; s++) {
            double t = P->tm0 + s * h, xd[16], fn, ft;
            field(m, P->mode, t, x, p, xd);
            reaction(p, k, x, xd, &fn, &ft);
            if (fabs(ft) / fn > worst)
                worst = fabs(ft) / fn, at = P->t0 + s * h;
            if (k == 2) {   /* locked: against the floating walker's constraint force */
                double lam[2];
                if (hes_mech_mode_state(&floating, t, x, p, NULL, NULL, lam, NULL) != HES_OK)
                    return 1;
                check = fmax(check, fmax(fabs(lam[0] - fn), fabs(lam[1] - ft)) / weight);
                checked++;
            }
            if (s == steps)
                break;
            /* RK4 step */
            double k1[16], k2[16], k3[16], k4[16], y[16];
            memcpy(k1, xd, sizeof k1);
            for (int i = 0; i < d; i++)
                y[i] = x[i] + h / 2 * k1[i];
            field(m, P->mode, t + h / 2, y, p, k2);
            for (int i = 0; i < d; i++)
                y[i] = x[i] + h / 2 * k2[i];
            field(m, P->mode, t + h / 2, y, p, k3);
            for (int i = 0; i < d; i++)
                y[i] = x[i] + h * k3[i];
            field(m, P->mode, t + h, y, p, k4);
            for (int i = 0; i < d; i++)
                x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        }
        double end = 0;
        for (int i = 0; i < d; i++)
            end = fmax(end, fabs(x[i] - P->x1[i]));
        if (end > 1e-6) {
            fprintf(stderr, "knee_biped_friction: RK4 misses the phase's end by %g\n", end);
            fail = 1;
        }
    }
    printf("passive gait (psi %.4f): friction needed %.4f at t = %.3f of %.3f s\n",
           an.stab.psi, worst, at, an.orbit.period);
    printf("locked phase: Newton's law against the floating walker's stance force at %d "
           "states: largest difference %.2e of the weight\n", checked, check);
    if (!(check <= 1e-9) || checked == 0)
        fail = 1;
    hes_analysis_free(&an);
    hes_system_destroy(sys);
    return fail;
}
