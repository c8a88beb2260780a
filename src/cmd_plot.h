/*
 * cmd_plot.h - the parts of `hes plot`: its command line and the choice of
 * picture (cmd_plot.c), the pictures of CSV tables (plot_csv.c) and the
 * pictures computed from a model (plot_model.c).  Each draws into out
 * (.png or .svg) through a private directory in tmpdir (gnuplot_run.h) and
 * returns the exit status after saying why it failed.
 */
#ifndef HES_CMD_PLOT_H
#define HES_CMD_PLOT_H

#include "cli.h"
#include "gnuplot_run.h"

/* The options of `hes plot convergence`. */
typedef struct {
    int trials, steps;           /* --trials, --steps */
    int box;                     /* 1: starts in the box (--box), 0: in the ball (--perturb) */
    double size;                 /* the box's half width or the ball's radius */
    unsigned long seed;          /* --seed */
} plot_conv_opts;

/* Pictures of the table in the file csv. */
int plot_stability_map(const char *csv, const char *tmpdir, const char *out);
int plot_ess_bench(const char *csv, const char *tmpdir, const char *out);
int plot_contact_forces(const char *csv, const char *tmpdir, const char *out);

/* The branches of `hes continue`'s output (its JSON document or CSV
 * table): y psi (NULL too), period or a state's name against the
 * parameter; every point's multipliers (JSON only). */
int plot_bifurcation(const char *path, const char *y, const char *tmpdir, const char *out);
int plot_branch_multipliers(const char *path, const char *tmpdir, const char *out);
/* The curves of `hes continue --param2` in the plane of its two
 * parameters, the branches' labelled points marked. */
int plot_boundary(const char *path, const char *tmpdir, const char *out);

/* The impact problem called name, with samples of its set (0: the
 * problem's number). */
int plot_impact_set(const char *name, int samples, const char *tmpdir, const char *out);
/* The orbit of sys: its multipliers, or the convergence of trials to it. */
int plot_multipliers(hes_system *sys, const char *tmpdir, const char *out);
int plot_convergence(hes_system *sys, const char *tmpdir, const char *out,
                     const plot_conv_opts *o);

#endif
