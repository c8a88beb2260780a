/*
 * cmd_plot.c - `hes plot`: pictures with gnuplot (needed at run time only;
 * HES_GNUPLOT names another program):
 *
 *   hes plot stability-map FILE.csv -o OUT.png|svg   psi over the two swept
 *        parameters of a `hes sweep --grid A --grid B` file, with the psi = 1
 *        contour (failed points blank);
 *   hes plot multipliers PROBLEM|--orbit FILE [-p ...] -o OUT   the
 *        nontrivial multipliers in the complex plane with the unit circle;
 *   hes plot convergence PROBLEM|--orbit FILE [-p ...] [--trials N]
 *        [--steps S] [--box H | --perturb R] [--seed N] -o OUT   the error
 *        after every period of perturbed trials (paper Figs. 3 and 5), each
 *        trial thin, the mean bold, log scale;
 *   hes plot ess-bench FILE.csv -o OUT   median wall time against the number
 *        of contacts for the ESS integrator and MuJoCo, with their least-
 *        squares lines (the ESS benchmark, BENCH_CSV=FILE make bench_mujoco);
 *   hes plot impact-set IMPACT-PROBLEM [--samples N] -o OUT   the sampled
 *        post-impact set on the first two contacts' normal and tangential
 *        velocities, Anitescu-Potra and sequential outcomes marked (Halm &
 *        Posa Figs. 9 and 11);
 *   hes plot contact-forces FILE.csv -o OUT   the normal forces and friction
 *        ratios along a motion, from `hes invdyn --csv`.
 *
 * The program reads the tables (plot_table.c), computes, and gives gnuplot
 * the data as data (gnuplot_run.c): numbers and curve names in data files,
 * titles and labels as the script's string arguments; each script is a
 * constant of this file, so no name from a table, a model or a robot
 * description, and no path, is ever part of gnuplot's code, and text is
 * drawn as it is (no enhanced-text markup, so apex_height keeps its
 * underscore).  gnuplot only draws, into a private directory, and the
 * picture is checked to be complete and copied to OUT with every write
 * checked (gnuplot itself exits 0 when it cannot write).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gnuplot_run.h"
#include "plot_table.h"

void cmd_plot_usage(FILE *out)
{
    fputs("Usage: hes plot stability-map FILE.csv -o OUT.png|OUT.svg\n"
          "       hes plot multipliers PROBLEM|--orbit FILE [-p NAME=VALUE]... -o OUT\n"
          "       hes plot convergence PROBLEM|--orbit FILE [-p NAME=VALUE]... [--trials N]\n"
          "                            [--steps S] [--box H | --perturb R] [--seed N] -o OUT\n"
          "       hes plot ess-bench FILE.csv -o OUT\n"
          "       hes plot impact-set IMPACT-PROBLEM [--samples N] -o OUT\n"
          "       hes plot contact-forces FILE.csv -o OUT\n"
          "Draw with gnuplot (HES_GNUPLOT: another program): psi over the two parameters\n"
          "of a 'hes sweep --grid A --grid B' file with the psi = 1 contour; the\n"
          "multipliers in the complex plane with the unit circle; the error of\n"
          "perturbed trials after every period; the ESS integrator's time against\n"
          "contacts beside MuJoCo's (the table of BENCH_CSV=FILE make bench_mujoco);\n"
          "a simultaneous impact's sampled outcomes on the first two contacts' normal\n"
          "and tangential velocities, Anitescu-Potra and sequential outcomes marked;\n"
          "the contact normal forces and friction ratios along a motion (the table of\n"
          "'hes invdyn --csv').\n"
          "The format follows OUT's extension.\n\n"
          "  -o, --output OUT        the picture, .png or .svg (required)\n"
          "  -p, --param NAME=VALUE  set a parameter (repeatable)\n"
          "      --orbit FILE        a gait file instead of PROBLEM\n"
          "convergence only:\n"
          "      --trials N          trials, 1 <= N <= 10000 (20)\n"
          "      --steps S           periods, 1 <= S <= 10000 (10)\n"
          "      --box H             starts uniform in (-H, H) per component (0.01)\n"
          "      --perturb R         starts uniform in the ball of radius R instead (not\n"
          "                          with --box)\n"
          "      --seed N            seed of the starts (1)\n"
          "impact-set only:\n"
          "      --samples N         samples of the set, 1 <= N <= 1000000 (the problem's)\n"
          CLI_NO_CHECK_DERIVATIVES_HELP
          "  -h, --help              show this help\n", out);
}

/* gnuplot terminal for OUT by its extension; NULL if neither. */
/* csv opened for reading by hes_input_open (regular files only, never
 * blocking, at most HES_INPUT_MAX bytes), or NULL after saying why. */
static FILE *open_table(const char *csv)
{
    char msg[768];
    int fd;
    if (hes_input_open(csv, 0, &fd, NULL, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "hes plot: %s\n", msg);
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        fprintf(stderr, "hes plot: %s: %s\n", csv, strerror(errno));
        close(fd);
    }
    return f;
}

/* The exit status of a table that plot_table.c did not read, after saying
 * why. */
static int table_refused(const char *csv, int rc, const char *msg)
{
    fprintf(stderr, "hes plot: %s: %s\n", csv, msg);
    return rc == PLOT_TABLE_REFUSED ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

/* A number of a data file, NaN where it is not finite. */
static void put_number(FILE *g, double v, const char *after)
{
    if (isfinite(v))
        fprintf(g, "%.17g%s", v, after);
    else
        fprintf(g, "NaN%s", after);
}

/* Draws a picture whose data a writer puts into the run's files: the run
 * begun, the data and arguments written (0, or the exit status), gnuplot
 * drawn with script, the run ended. */
typedef int (*plot_writer)(gp_run *r, void *ctx);

static int draw(const char *tmpdir, const char *out, plot_writer write, void *ctx,
                const char *const *script)
{
    gp_run r;
    int rc = gp_begin(&r, tmpdir, out);
    if (rc == CLI_EXIT_OK && (rc = write(&r, ctx)) == CLI_EXIT_OK)
        rc = gp_draw(&r, *script, out);
    gp_end(&r);
    return rc;
}

/* ----------------------------------------------------------- stability map */

static int map_data(gp_run *r, void *ctx)
{
    const plot_map *m = ctx;
    FILE *g = gp_data(r, "map.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    /* the grid, scan lines separated by blank lines */
    for (int i = 0; i < m->n; i++) {
        if (i > 0 && i % m->nb == 0)
            fputc('\n', g);
        put_number(g, m->a[i], " ");
        put_number(g, m->b[i], " ");
        put_number(g, m->psi[i], "\n");
    }
    int rc = gp_data_close(r, g, "map.dat");
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "psi over %s and %s (black: psi = 1; stable inside the blue)",
                    m->names[0], m->names[1]);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", m->names[0]);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", m->names[1]);
    return rc;
}

static const char *const map_script =
    "map = d.'/map.dat'\n"
    "set table $cont\nset contour base\nset cntrparam levels discrete 1\n"
    "unset surface\nset view map\nsplot map using 1:2:3 with lines\nunset table\n"
    "unset contour\nset surface\n"
    "set title ARGV[2]\nset xlabel ARGV[3]\nset ylabel ARGV[4]\nset cblabel 'psi'\n"
    "set palette defined (0 '#08306b', 0.5 '#4292c6', 1 '#f7fbff', 1.5 '#fc9272', 3 '#67000d')\n"
    "set cbrange [0:3]\nset view map\nset key off\n"
    "plot map using 1:2:3 with image, $cont using 1:2 with lines lw 2 lc rgb 'black'\n";

static int stability_map(const char *csv, const char *tmpdir, const char *out)
{
    plot_map m;
    char msg[512];
    FILE *f = open_table(csv);
    if (!f)
        return CLI_EXIT_USAGE;
    int rc = plot_map_read(f, &m, msg, sizeof msg);
    fclose(f);
    if (rc != PLOT_TABLE_OK)
        return table_refused(csv, rc, msg);
    rc = draw(tmpdir, out, map_data, &m, &map_script);
    plot_map_free(&m);
    return rc;
}

/* ------------------------------------------------------- ess-bench */

/* The table of `BENCH_CSV=FILE make bench_mujoco` (tests/bench/
 * bench_ess_mujoco.c): '#' lines (one with the slopes), the header
 * N,hes_s,mujoco_s,..., then one row per N.  Drawn: median milliseconds per
 * run against N for both engines, points and their least-squares lines
 * (the slopes: the marginal cost per contact), and, when the table has the
 * column eq_hes_s, hes at MuJoCo's accuracy on the plate. */
static int bench_data(gp_run *r, void *ctx)
{
    const plot_bench *b = ctx;
    FILE *g = gp_data(r, "bench.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int i = 0; i < b->n; i++) {
        put_number(g, b->N[i], " ");
        put_number(g, 1e3 * b->hes_s[i], " ");
        put_number(g, 1e3 * b->mujoco_s[i], " ");
        put_number(g, 1e3 * b->eq_hes_s[i], "\n");
    }
    return gp_data_close(r, g, "bench.dat");
}

#define BENCH_SCRIPT(EQ)                                                                    \
    "f = d.'/bench.dat'\n"                                                                  \
    "fh(x) = ah + bh * x\nfm(x) = am + bm * x\n"                                            \
    "set fit quiet nolog\nfit fh(x) f using 1:2 via ah, bh\n"                               \
    "fit fm(x) f using 1:3 via am, bm\n"                                                    \
    "set title 'plate on N legs: median wall time per run (lines: least squares)'\n"       \
    "set xlabel 'contacts N (legs)'\nset ylabel 'milliseconds per 2 s simulated'\n"         \
    "set key top left\nset grid\nset yrange [0:*]\n"                                        \
    "plot f using 1:2 with points pt 7 ps 1.3 lc rgb '#08519c' title 'hes (ESS)', "         \
    "fh(x) with lines lw 2 lc rgb '#08519c' title sprintf('hes: %.0f us per contact', 1e3 * bh), " \
    "f using 1:3 with points pt 5 ps 1.3 lc rgb '#a50f15' title 'MuJoCo', "                 \
    "fm(x) with lines lw 2 lc rgb '#a50f15' title sprintf('MuJoCo: %.0f us per contact', 1e3 * bm)" \
    EQ "\n"

static const char *const bench_script = BENCH_SCRIPT("");
static const char *const bench_eq_script =
    BENCH_SCRIPT(", f using 1:4 with linespoints pt 9 ps 1.3 dt 2 lc rgb '#41ab5d' "
                 "title 'hes at MuJoCo''s plate accuracy (eps per N)'");

static int ess_bench(const char *csv, const char *tmpdir, const char *out)
{
    plot_bench b;
    char msg[512];
    FILE *f = open_table(csv);
    if (!f)
        return CLI_EXIT_USAGE;
    int rc = plot_bench_read(f, &b, msg, sizeof msg);
    fclose(f);
    if (rc != PLOT_TABLE_OK)
        return table_refused(csv, rc, msg);
    int neq = 0;
    for (int i = 0; i < b.n; i++)
        neq += isfinite(b.eq_hes_s[i]);
    rc = draw(tmpdir, out, bench_data, &b, neq >= 2 ? &bench_eq_script : &bench_script);
    plot_bench_free(&b);
    return rc;
}

/* ------------------------------------------------- contact-forces */

/* The table of `hes invdyn --csv`: header t,method,status,tau...,fn:C...,
 * ...,ratio:C...,stance:C...,mu_min,slip.  Drawn: the normal forces of
 * every contact against t (top) and the friction ratios |f_t|/f_n of the
 * stance contacts with the smallest friction of each node (bottom).  The
 * data file's columns are t, then f_n and the ratio of each contact, then
 * mu_min; the contacts' names are one argument, separated by tabs (a
 * control character in a name shows as '?'), which the script splits. */
static int forces_data(gp_run *r, void *ctx)
{
    const plot_forces *p = ctx;
    int nc = p->n_contacts;
    FILE *g = gp_data(r, "forces.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int row = 0; row < p->rows; row++) {
        put_number(g, p->t[row], " ");
        for (int c = 0; c < nc; c++) {
            put_number(g, p->fn[(size_t)row * nc + c], " ");
            put_number(g, p->ratio[(size_t)row * nc + c], " ");
        }
        put_number(g, p->mu_min[row], "\n");
    }
    int rc = gp_data_close(r, g, "forces.dat");
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%d", nc);
    size_t len = 0;
    for (int c = 0; c < nc; c++)
        len += strlen(p->names[c]) + 1;
    char *names = malloc(len + 1), *w = names;
    if (!names) {
        fprintf(stderr, "hes plot: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    for (int c = 0; c < nc; c++) {
        for (const char *ch = p->names[c]; *ch; ch++)
            *w++ = (unsigned char)*ch < 0x20 ? '?' : *ch;
        *w++ = c + 1 < nc ? '\t' : '\0';
    }
    *w = '\0';
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", names);
    free(names);
    return rc;
}

static const char *const forces_script =
    "f = d.'/forces.dat'\nnc = ARGV[2] + 0\nnames = ARGV[3]\nsep = \"\\t\"\n"
    "name(s, k) = k <= 1 ? (strstrt(s, sep) ? s[1:strstrt(s, sep) - 1] : s) "
    ": name(s[strstrt(s, sep) + 1:], k - 1)\n"
    "set multiplot layout 2,1\nset grid\nset key outside right\n"
    "set title 'contact normal forces (inverse dynamics)'\nset ylabel 'f_n (N)'\n"
    "plot for [c=1:nc] f using 1:2*c with lines lw 2 title name(names, c)\n"
    "set title 'friction ratio |f_t|/f_n of the stance contacts'\n"
    "set xlabel 't (s)'\nset ylabel 'ratio'\n"
    "plot for [c=1:nc] f using 1:2*c+1 with lines lw 1.5 title name(names, c), "
    "f using 1:2*nc+2 with lines lw 2 dt 2 lc rgb 'black' title 'smallest friction'\n"
    "unset multiplot\n";

static int contact_forces(const char *csv, const char *tmpdir, const char *out)
{
    plot_forces p;
    char msg[512];
    FILE *f = open_table(csv);
    if (!f)
        return CLI_EXIT_USAGE;
    int rc = plot_forces_read(f, &p, msg, sizeof msg);
    fclose(f);
    if (rc != PLOT_TABLE_OK)
        return table_refused(csv, rc, msg);
    rc = draw(tmpdir, out, forces_data, &p, &forces_script);
    plot_forces_free(&p);
    return rc;
}

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
static int impact_set_plot(const char *name, int samples, const char *tmpdir, const char *out)
{
    const hes_impact_problem *pb = hes_impact_problem_find(name);
    if (!pb || pb->k < 2) {
        fprintf(stderr, "hes plot impact-set: '%s' is not an impact problem of two or more "
                "contacts (see 'hes list': [impact])\n", name);
        return CLI_EXIT_USAGE;
    }
    hes_impact_setup s;
    char msg[512];
    hes_status st = hes_impact_problem_setup(pb, &s, msg, sizeof msg);
    hes_impact_set S;
    memset(&S, 0, sizeof S);
    hes_impact_set_options o = { samples > 0 ? samples : pb->samples,
                                 { pb->h, pb->steps, 0, 1 }, 0, 2, 0, 0 };
    if (st == HES_OK)
        st = hes_impact_set_sample(&s.contacts, s.v, &o, &S, msg, sizeof msg);
    hes_impact_outcome outs[3];
    memset(outs, 0, sizeof outs);
    outs[0].law = HES_LAW_ANITESCU_POTRA;
    for (int j = 1; j <= 2; j++) {
        outs[j].law = HES_LAW_SEQUENTIAL;
        for (int i = 0; i < s.k; i++)
            outs[j].order[i] = j == 1 ? i : s.k - 1 - i;
    }
    for (int j = 0; st == HES_OK && j < 3; j++) {
        hes_status sj = hes_impact_outcome_compute(&s.contacts, s.v, NULL, &outs[j], msg,
                                                   sizeof msg);
        if (sj != HES_OK && sj != HES_EMAXITER)
            st = sj;
    }
    if (st != HES_OK) {
        fprintf(stderr, "hes plot impact-set: %s\n", msg);
        hes_impact_set_free(&S);
        return CLI_EXIT_FAILURE;
    }
    impact_ctx c = { pb, &S, outs, s.k };
    int rc = draw(tmpdir, out, impact_data, &c, &impact_script);
    hes_impact_set_free(&S);
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

static int multipliers(hes_system *sys, const char *tmpdir, const char *out)
{
    hes_analysis res;
    hes_status st = hes_analyze(sys, 0, &res);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    mult_ctx c = { sys, &res };
    int rc = draw(tmpdir, out, mult_data, &c, &mult_script);
    hes_analysis_free(&res);
    return rc;
}

typedef struct {
    const hes_system *sys;
    const hes_trials *t;
    int trials, steps, box;
    double size;
} conv_ctx;

/* Each trial's errors a block of trials.dat (two blank lines between them:
 * gnuplot's index), the mean of the completed trials mean.dat. */
static int conv_data(gp_run *r, void *ctx)
{
    const conv_ctx *c = ctx;
    FILE *g = gp_data(r, "trials.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int i = 0; i < c->trials; i++) {
        const hes_trial *tr = &c->t->trials[i];
        for (int k = 0; k < tr->steps_completed; k++)
            fprintf(g, "%d %.17g\n", k + 1, fmax(tr->error[k], 1e-300));
        fputs(tr->steps_completed ? "\n\n" : "0 NaN\n\n\n", g);
    }
    int rc = gp_data_close(r, g, "trials.dat");
    if (rc != CLI_EXIT_OK || !(g = gp_data(r, "mean.dat")))
        return CLI_EXIT_FAILURE;
    for (int k = 0; c->t->n_complete && k < c->steps; k++)
        fprintf(g, "%d %.17g\n", k + 1, fmax(c->t->mean_error[k], 1e-300));
    if (!c->t->n_complete)
        fputs("0 NaN\n", g);
    if ((rc = gp_data_close(r, g, "mean.dat")) == CLI_EXIT_OK)
        rc = gp_arg(r, "%s: %d perturbed starts (%s %g), error after each period; %d converged",
                    hes_system_name(c->sys), c->trials, c->box ? "box" : "ball", c->size,
                    c->t->converged);
    return rc == CLI_EXIT_OK ? gp_arg(r, "%d", c->trials) : rc;
}

static const char *const conv_script =
    "f = d.'/trials.dat'\nn = ARGV[3] + 0\n"
    "set logscale y\nset grid\nset title ARGV[2]\n"
    "set xlabel 'period'\nset ylabel 'distance to the orbit'\nset key top right\n"
    "plot for [i=0:n-1] f index i using 1:2 with lines lc rgb '#9ecae1' notitle, "
    "d.'/mean.dat' using 1:2 with linespoints lw 3 pt 7 lc rgb '#08519c' "
    "title 'mean of the trials that completed'\n";

static int convergence(hes_system *sys, const char *tmpdir, const char *out, int trials,
                       int steps, double size, int box, unsigned long seed)
{
    hes_orbit orbit;
    hes_trials t;
    hes_status st = hes_orbit_find(sys, &orbit);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    st = (box ? hes_trials_run_box : hes_trials_run)(sys, &orbit, trials, size, steps, seed, 1e-6, &t);
    if (st != HES_OK) {
        hes_orbit_free(&orbit);
        return cli_report_status(st, sys);
    }
    conv_ctx c = { sys, &t, trials, steps, box, size };
    int rc = draw(tmpdir, out, conv_data, &c, &conv_script);
    hes_trials_free(&t);
    hes_orbit_free(&orbit);
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    enum { OPT_ORBIT = 256, OPT_TRIALS, OPT_STEPS, OPT_BOX, OPT_PERTURB, OPT_SEED, OPT_SAMPLES };
    static const struct option longopts[] = {
        {"samples", required_argument, NULL, OPT_SAMPLES},
        {"output", required_argument, NULL, 'o'},
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"orbit", required_argument, NULL, OPT_ORBIT},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"box", required_argument, NULL, OPT_BOX},
        {"perturb", required_argument, NULL, OPT_PERTURB},
        {"seed", required_argument, NULL, OPT_SEED},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_assignments params;
    const char *out = NULL, *orbit_file = NULL, *tmpdir = getenv("TMPDIR");
    int c, rc = CLI_EXIT_OK, trials = 20, steps = 10, box = 1, samples = 0;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    double size = 0.01;
    unsigned long seed = 1;
    cli_assignments_init(&params);
    optind = 1;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "o:p:h", longopts, NULL)) != -1) {
        if (c != 'p' && c != 'h' && c != '?' && (rc = cli_once(argv[0], longopts, c, seen)) != 0)
            break;
        if ((c == OPT_BOX && seen[OPT_PERTURB]) || (c == OPT_PERTURB && seen[OPT_BOX])) {
            fprintf(stderr, "hes plot: --box and --perturb exclude each other (a box or a ball "
                    "of starts)\n");
            rc = CLI_EXIT_USAGE;
            break;
        }
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_ORBIT:
            orbit_file = optarg;
            break;
        case OPT_TRIALS:
        case OPT_STEPS: /* (the limits keep the gnuplot script small) */
            if (cli_int_option("hes plot", c == OPT_TRIALS ? "--trials" : "--steps", optarg, 1,
                               10000, c == OPT_TRIALS ? &trials : &steps)) {
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_BOX:
        case OPT_PERTURB:
            box = c == OPT_BOX;
            if (cli_parse_double(optarg, &size) || !(size >= 0)) {
                fprintf(stderr, "hes plot: %s needs a number >= 0, got '%s'\n",
                        box ? "--box" : "--perturb", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_SAMPLES:
            if (cli_int_option("hes plot", "--samples", optarg, 1, 1000000, &samples))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_SEED:
            if (cli_parse_ulong(optarg, &seed)) {
                fprintf(stderr, "hes plot: --seed needs a non-negative integer, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case 'h':
            cmd_plot_usage(stdout);
            cli_assignments_free(&params);
            return CLI_EXIT_OK;
        default:
            cmd_plot_usage(stderr);
            rc = CLI_EXIT_USAGE;
        }
    }
    const char *kind = optind < argc ? argv[optind] : NULL;
    if (!tmpdir || !*tmpdir || strlen(tmpdir) > 400)
        tmpdir = "/tmp";
    if (rc == CLI_EXIT_OK && !kind) {
        fprintf(stderr, "hes plot: which plot? stability-map, multipliers, convergence, "
                "ess-bench, impact-set or contact-forces\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && (!out || !(strrchr(out, '.') && (strcmp(strrchr(out, '.'), ".png") == 0 ||
                                                             strcmp(strrchr(out, '.'), ".svg") == 0)))) {
        fprintf(stderr, "hes plot: -o OUT.png or OUT.svg is required\n");
        rc = CLI_EXIT_USAGE;
    }
    /* the options of the other kinds of plot would be ignored */
    static const int trial_codes[] = { OPT_TRIALS, OPT_STEPS, OPT_BOX, OPT_PERTURB, OPT_SEED };
    static const char *const trial_names[] = { "trials", "steps", "box", "perturb", "seed" };
    for (size_t k = 0; rc == CLI_EXIT_OK && kind && k < sizeof trial_codes / sizeof *trial_codes; k++)
        if (seen[trial_codes[k]] && strcmp(kind, "convergence") != 0) {
            fprintf(stderr, "hes plot %s: --%s is an option of 'hes plot convergence' only\n",
                    kind, trial_names[k]);
            rc = CLI_EXIT_USAGE;
        }
    if (rc == CLI_EXIT_OK && kind && seen[OPT_SAMPLES] && strcmp(kind, "impact-set") != 0) {
        fprintf(stderr, "hes plot %s: --samples is an option of 'hes plot impact-set' only\n",
                kind);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && kind && strcmp(kind, "stability-map") == 0 &&
        (params.n > 0 || orbit_file)) {
        fprintf(stderr, "hes plot stability-map: %s does not apply: the map draws the sweep "
                "file as it is\n", params.n > 0 ? "-p" : "--orbit");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "stability-map") == 0) {
        cli_assignments_free(&params);
        if (argc - optind != 2) {
            fprintf(stderr, "hes plot stability-map: expected one sweep FILE.csv\n");
            return CLI_EXIT_USAGE;
        }
        return stability_map(argv[optind + 1], tmpdir, out);
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "ess-bench") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot ess-bench: expected one FILE.csv of bench_ess_mujoco "
                    "(BENCH_CSV=FILE make bench_mujoco), and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        return ess_bench(argv[optind + 1], tmpdir, out);
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "contact-forces") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot contact-forces: expected one FILE.csv of 'hes invdyn "
                    "--csv', and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        return contact_forces(argv[optind + 1], tmpdir, out);
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "impact-set") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot impact-set: expected one impact PROBLEM (see 'hes list': "
                    "[impact]), and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        return impact_set_plot(argv[optind + 1], samples, tmpdir, out);
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "multipliers") != 0 && strcmp(kind, "convergence") != 0) {
        fprintf(stderr, "hes plot: unknown plot '%s' (stability-map, multipliers, convergence, "
                "ess-bench, impact-set, contact-forces)\n", kind);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 2 && !(orbit_file && argc - optind == 1)) {
        fprintf(stderr, "hes plot %s: expected PROBLEM (or --orbit FILE)\n", kind);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        cli_assignments_free(&params);
        return rc;
    }
    cli_orbit orbit;
    const hes_model *model = cli_model_for(argc - optind == 2 ? argv[optind + 1] : NULL, orbit_file,
                                           &orbit, &rc);
    hes_system *sys = model ? cli_system_setup(model, &params, &rc) : NULL;
    cli_assignments_free(&params);
    if (sys)
        rc = kind[0] == 'm' ? multipliers(sys, tmpdir, out)
                            : convergence(sys, tmpdir, out, trials, steps, size, box, seed);
    hes_system_destroy(sys);
    if (model)
        cli_orbit_free(&orbit);
    return rc;
}
