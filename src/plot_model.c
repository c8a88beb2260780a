/*
 * plot_model.c - the pictures `hes plot` computes from a model
 * (cmd_plot.h), drawn by gnuplot_run.c: impact-set (the sampled outcomes of
 * a simultaneous impact with the Anitescu-Potra and sequential ones
 * marked), multipliers (in the complex plane with the unit circle) and
 * convergence (the error of perturbed trials after every period).  Each
 * script is a constant: names of models and contacts reach gnuplot as
 * data, never as code.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd_plot.h"

/* ------------------------------------------------------- impact-set */

typedef struct {
    const hes_impact_problem *pb;
    const hes_impact_set *S;
    const hes_impact_outcome *outs; /* Anitescu-Potra, the two sequential orders */
    int k;
} impact_ctx;

static int impact_data(gp_run *r, void *ctx)
{
    const impact_ctx *c = ctx;
    int k = c->k, rc = CLI_EXIT_OK;
    FILE *g = gp_data(r, "samples.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int i = 0; i < c->S->samples; i++)
        if (c->S->finished[i]) {
            const double *u = c->S->u + (size_t)i * 2 * k;
            fprintf(g, "%.10g %.10g %.10g %.10g\n", u[0], u[1], u[k], u[k + 1]);
        }
    rc = gp_data_close(r, g, "samples.dat");
    static const char *const laws[3] = { "l0.dat", "l1.dat", "l2.dat" };
    for (int j = 0; j < 3 && rc == CLI_EXIT_OK; j++) {
        const hes_impact_outcome *o = &c->outs[j];
        if (!(g = gp_data(r, laws[j])))
            return CLI_EXIT_FAILURE;
        if (o->status == HES_OK)
            fprintf(g, "%.10g %.10g %.10g %.10g\n", o->u[0], o->u[1], o->u[k], o->u[k + 1]);
        else
            fprintf(g, "NaN NaN NaN NaN\n");
        rc = gp_data_close(r, g, laws[j]);
    }
    const hes_mech *m = c->pb->mech;
    const char *a = m->constraints[c->pb->contacts[0]].name,
               *b = m->constraints[c->pb->contacts[1]].name;
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s: %d post-impact velocities (Halm and Posa impulse stepping, h = %g, "
                    "N = %d)", c->pb->name, c->S->n_finished, c->pb->h, c->pb->steps);
    for (int panel = 0; panel < 2 && rc == CLI_EXIT_OK; panel++) {
        const char *u = panel ? "t" : "n";
        if ((rc = gp_arg(r, "%s: u_%s", a, u)) == CLI_EXIT_OK)
            rc = gp_arg(r, "%s: u_%s", b, u);
    }
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "sequential %s first", a);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "sequential %s first", k == 2 ? b : "last");
    return rc;
}

#define IMPACT_PANEL(C, XL, YL, TITLE)                                                      \
    "set title '" TITLE " velocities'\nset xlabel ARGV[" XL "]\nset ylabel ARGV[" YL "]\n"  \
    "plot s using " C " with points pt 7 ps 0.4 lc rgb '#808080' title 'samples', "        \
    "d.'/l0.dat' using " C " with points pt 7 ps 2 lc rgb '#2166ac' title 'Anitescu-Potra', " \
    "d.'/l1.dat' using " C " with points pt 5 ps 1.6 lc rgb '#b2182b' title ARGV[7], "     \
    "d.'/l2.dat' using " C " with points pt 9 ps 1.8 lc rgb '#e6ab02' title ARGV[8]\n"

static const char *const impact_script =
    "s = d.'/samples.dat'\n"
    "set multiplot layout 1,2 title ARGV[2]\n"
    "set grid\nset key below\nset format x '%.3g'\nset format y '%.3g'\n"
    "set xtics rotate by -35\nset offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
    IMPACT_PANEL("1:2", "3", "4", "normal")
    IMPACT_PANEL("3:4", "5", "6", "tangential")
    "unset multiplot\n";

/* The paper's Fig. 9/11 picture of an impact problem: the sampled
 * post-impact velocities projected on the first two contacts' normals (left)
 * and tangents (right), with the Anitescu-Potra and sequential outcomes
 * marked. */
int plot_impact_set(const char *name, int samples, const char *tmpdir, const char *out)
{
    const hes_impact_problem *pb = hes_impact_problem_find(name);
    if (!pb || pb->k < 2) {
        fprintf(stderr, "hes plot impact-set: '%s' is not an impact problem of two or more "
                "contacts (see 'hes list': [impact])\n", name);
        return CLI_EXIT_USAGE;
    }
    hes_impact_setup s;
    hes_error msg;
    hes_status st = hes_impact_problem_setup(pb, &s, &msg);
    hes_impact_set S;
    memset(&S, 0, sizeof S);
    hes_impact_set_options o = { samples > 0 ? samples : pb->samples,
                                 { pb->h, pb->steps, 0, 1 }, 0, 2, 0, 0 };
    if (st == HES_OK)
        st = hes_impact_set_sample(&s.contacts, s.v, &o, &S, &msg);
    hes_impact_outcome outs[3];
    memset(outs, 0, sizeof outs);
    for (int j = 0; st == HES_OK && j < 3; j++)
        if ((st = hes_impact_outcome_init(&outs[j], j ? HES_LAW_SEQUENTIAL
                                                      : HES_LAW_ANITESCU_POTRA, s.d, s.k)) ==
            HES_OK)
            for (int i = 0; j && i < s.k; i++)
                outs[j].order[i] = j == 1 ? i : s.k - 1 - i;
        else
            snprintf(msg.message, sizeof msg.message, "out of memory");
    for (int j = 0; st == HES_OK && j < 3; j++) {
        hes_status sj = hes_impact_outcome_compute(&s.contacts, s.v, NULL, &outs[j], &msg);
        if (sj != HES_OK && sj != HES_EMAXITER)
            st = sj;
    }
    if (st != HES_OK) {
        fprintf(stderr, "hes plot impact-set: %s\n", msg.message);
        hes_impact_set_free(&S);
        hes_impact_setup_free(&s);
        for (int j = 0; j < 3; j++)
            hes_impact_outcome_free(&outs[j]);
        return CLI_EXIT_FAILURE;
    }
    impact_ctx c = { pb, &S, outs, s.k };
    int rc = gp_picture(tmpdir, out, impact_data, &c, impact_script);
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
    for (int j = 0; j < 3; j++)
        hes_impact_outcome_free(&outs[j]);
    return rc;
}

/* ------------------------------------------- multipliers and convergence */

typedef struct {
    const hes_system *sys;
    const hes_analysis *res;
} mult_ctx;

static int mult_data(gp_run *r, void *ctx)
{
    const mult_ctx *c = ctx;
    const hes_stability *st = &c->res->stab;
    FILE *g = gp_data(r, "mult.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    double range = 1.1;
    for (int k = 0; k < st->n_mult; k++) {
        fprintf(g, "%.17g %.17g\n", st->re[k], st->im[k]);
        range = fmax(range, 1.1 * st->abs[k]);
    }
    int rc = gp_data_close(r, g, "mult.dat");
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "multipliers of %s: psi = %.6g (%s)", hes_system_name(c->sys), st->psi,
                    hes_verdict_name(st->verdict));
    return rc == CLI_EXIT_OK ? gp_arg(r, "%.17g", range) : rc;
}

static const char *const mult_script =
    "r = ARGV[3] + 0\n"
    "set size ratio -1\nset title ARGV[2]\nset xlabel 'Re'\nset ylabel 'Im'\n"
    "set xrange [-r:r]\nset yrange [-r:r]\nset grid\nset parametric\nset trange [0:2*pi]\n"
    "set key bottom right\n"
    "plot cos(t), sin(t) title 'unit circle' lw 2 lc rgb 'gray', "
    "d.'/mult.dat' using 1:2 with points pt 7 ps 1.6 lc rgb '#c00000' title 'multipliers'\n";

int plot_multipliers(hes_system *sys, const char *tmpdir, const char *out)
{
    hes_analysis res;
    hes_status st = hes_analyze(sys, 0, &res);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    mult_ctx c = { sys, &res };
    int rc = gp_picture(tmpdir, out, mult_data, &c, mult_script);
    hes_analysis_free(&res);
    return rc;
}

typedef struct {
    const hes_system *sys;
    const hes_trials *t;
    const plot_conv_opts *o;
} conv_ctx;

/* Each trial's errors a block of trials.dat (two blank lines between them:
 * gnuplot's index), the mean of the completed trials mean.dat. */
static int conv_data(gp_run *r, void *ctx)
{
    const conv_ctx *c = ctx;
    FILE *g = gp_data(r, "trials.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int i = 0; i < c->o->trials; i++) {
        const hes_trial *tr = &c->t->trials[i];
        for (int k = 0; k < tr->steps_completed; k++)
            fprintf(g, "%d %.17g\n", k + 1, fmax(tr->error[k], 1e-300));
        fputs(tr->steps_completed ? "\n\n" : "0 NaN\n\n\n", g);
    }
    int rc = gp_data_close(r, g, "trials.dat");
    if (rc != CLI_EXIT_OK || !(g = gp_data(r, "mean.dat")))
        return CLI_EXIT_FAILURE;
    for (int k = 0; c->t->n_complete && k < c->o->steps; k++)
        fprintf(g, "%d %.17g\n", k + 1, fmax(c->t->mean_error[k], 1e-300));
    if (!c->t->n_complete)
        fputs("0 NaN\n", g);
    if ((rc = gp_data_close(r, g, "mean.dat")) == CLI_EXIT_OK)
        rc = gp_arg(r, "%s: %d perturbed starts (%s %g), error after each period; %d converged",
                    hes_system_name(c->sys), c->o->trials, c->o->box ? "box" : "ball",
                    c->o->size, c->t->converged);
    return rc == CLI_EXIT_OK ? gp_arg(r, "%d", c->o->trials) : rc;
}

static const char *const conv_script =
    "f = d.'/trials.dat'\nn = ARGV[3] + 0\n"
    "set logscale y\nset grid\nset title ARGV[2]\n"
    "set xlabel 'period'\nset ylabel 'distance to the orbit'\nset key top right\n"
    "plot for [i=0:n-1] f index i using 1:2 with lines lc rgb '#9ecae1' notitle, "
    "d.'/mean.dat' using 1:2 with linespoints lw 3 pt 7 lc rgb '#08519c' "
    "title 'mean of the trials that completed'\n";

int plot_convergence(hes_system *sys, const char *tmpdir, const char *out,
                     const plot_conv_opts *o)
{
    hes_orbit orbit;
    hes_trials t;
    hes_status st = hes_orbit_find(sys, &orbit);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    st = (o->box ? hes_trials_run_box : hes_trials_run)(sys, &orbit, o->trials, o->size, o->steps,
                                                        o->seed, 1e-6, &t);
    if (st != HES_OK) {
        hes_orbit_free(&orbit);
        return cli_report_status(st, sys);
    }
    conv_ctx c = { sys, &t, o };
    int rc = gp_picture(tmpdir, out, conv_data, &c, conv_script);
    hes_trials_free(&t);
    hes_orbit_free(&orbit);
    return rc;
}
