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
 *        ratios along a motion, from `hes invdyn --csv`;
 *   hes plot bifurcation FILE.json|FILE.csv [--y psi|period|STATE] -o OUT
 *        the branches of `hes continue` against the parameter, stable
 *        stretches solid, labelled points marked;
 *   hes plot branch-multipliers FILE.json -o OUT   the multipliers of every
 *        point of those branches in the complex plane, with the unit circle;
 *   hes plot boundary FILE.json|FILE.csv -o OUT   the curves of `hes continue
 *        --param2` in the plane of its two parameters, each with its label,
 *        the branches' labelled points marked.
 *
 * The program reads the tables (plot_table.c), computes, and gives gnuplot
 * the data as data (gnuplot_run.c): numbers and curve names in data files,
 * titles and labels as the script's string arguments; each script is a
 * constant of the program (plot_csv.c, plot_model.c), so no name from a table, a model or a robot
 * description, and no path, is ever part of gnuplot's code, and text is
 * drawn as it is (no enhanced-text markup, so apex_height keeps its
 * underscore).  gnuplot only draws, into a private directory, and the
 * picture is checked to be complete and copied to OUT with every write
 * checked (gnuplot itself exits 0 when it cannot write). *
 * This file reads the command line and chooses the picture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_plot.h"

enum { OPT_ORBIT = 256, OPT_TRIALS, OPT_STEPS, OPT_BOX, OPT_PERTURB, OPT_SEED, OPT_SAMPLES,
       OPT_Y };

static const struct argp_option options[] = {
    {"output", 'o', "OUT", 0, "the picture, .png or .svg (required)", 0},
    {"orbit", OPT_ORBIT, "FILE", 0, "a gait file instead of PROBLEM", 0},
    {NULL, 0, NULL, 0, "convergence only:", 1},
    {"trials", OPT_TRIALS, "N", 0, "trials, 1 <= N <= 10000 (20)", 1},
    {"steps", OPT_STEPS, "S", 0, "periods, 1 <= S <= 10000 (10)", 1},
    {"box", OPT_BOX, "H", 0, "starts uniform in (-H, H) per component (0.01)", 1},
    {"perturb", OPT_PERTURB, "R", 0, "starts uniform in the ball of radius R instead (not "
     "with --box)", 1},
    {"seed", OPT_SEED, "N", 0, "seed of the starts (1)", 1},
    {NULL, 0, NULL, 0, "impact-set only:", 2},
    {"samples", OPT_SAMPLES, "N", 0, "samples of the set, 1 <= N <= 1000000 (the "
     "problem's)", 2},
    {NULL, 0, NULL, 0, "bifurcation only:", 3},
    {"y", OPT_Y, "Q", 0, "the quantity on y: psi (the default), period or a state's name", 3},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* What the command line asks for. */
typedef struct {
    cli_args cli;
    const char *out, *orbit_file;
    const char *y;               /* bifurcation's --y (NULL: psi) */
    int samples;                 /* --samples (0: the problem's) */
    plot_conv_opts conv;         /* convergence's options */
} plot_cli;

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    plot_cli *o = state->input;
    const char *cmd = o->cli.cmd;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case 'o':        o->out = arg; return 0;
    case OPT_ORBIT:  o->orbit_file = arg; return 0;
    case OPT_TRIALS: /* (the limits keep the gnuplot script small) */
        return cli_int_option(cmd, "--trials", arg, 1, 10000, &o->conv.trials)
               ? CLI_ARG_REFUSED : 0;
    case OPT_STEPS:
        return cli_int_option(cmd, "--steps", arg, 1, 10000, &o->conv.steps)
               ? CLI_ARG_REFUSED : 0;
    case OPT_BOX:
    case OPT_PERTURB:
        if (o->cli.seen[key == OPT_BOX ? OPT_PERTURB : OPT_BOX]) {
            fprintf(stderr, "hes plot: --box and --perturb exclude each other (a box or a ball "
                    "of starts)\n");
            return CLI_ARG_REFUSED;
        }
        o->conv.box = key == OPT_BOX;
        if (cli_parse_double(arg, &o->conv.size) == 0 && o->conv.size >= 0)
            return 0;
        fprintf(stderr, "hes plot: %s needs a number >= 0, got '%s'\n",
                o->conv.box ? "--box" : "--perturb", arg);
        return CLI_ARG_REFUSED;
    case OPT_Y:      o->y = arg; return 0;
    case OPT_SAMPLES:
        return cli_int_option(cmd, "--samples", arg, 1, 1000000, &o->samples)
               ? CLI_ARG_REFUSED : 0;
    case OPT_SEED:
        if (cli_parse_ulong(arg, &o->conv.seed) == 0)
            return 0;
        fprintf(stderr, "hes plot: --seed needs a non-negative integer, got '%s'\n", arg);
        return CLI_ARG_REFUSED;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp plot_argp = {
    options, parse_option,
    "stability-map FILE.csv -o OUT.png|OUT.svg\n"
    "multipliers PROBLEM|--orbit FILE -o OUT\n"
    "convergence PROBLEM|--orbit FILE -o OUT\n"
    "ess-bench FILE.csv -o OUT\n"
    "impact-set IMPACT-PROBLEM -o OUT\n"
    "contact-forces FILE.csv -o OUT\n"
    "bifurcation FILE.json|FILE.csv [--y Q] -o OUT\n"
    "branch-multipliers FILE.json -o OUT\n"
    "boundary FILE.json|FILE.csv -o OUT",
    "Draw with gnuplot (HES_GNUPLOT: another program): psi over the two parameters of a "
    "'hes sweep --grid A --grid B' file with the psi = 1 contour; the multipliers in the "
    "complex plane with the unit circle; the error of perturbed trials after every period; "
    "the ESS integrator's time against contacts beside MuJoCo's (the table of "
    "BENCH_CSV=FILE make bench_mujoco); a simultaneous impact's sampled outcomes on the "
    "first two contacts' normal and tangential velocities, Anitescu-Potra and sequential "
    "outcomes marked; the contact normal forces and friction ratios along a motion (the "
    "table of 'hes invdyn --csv'); the branches of 'hes continue --json' or '--csv' against "
    "the parameter, stable stretches solid and labelled points marked, and their multipliers "
    "in the complex plane; the curves of its bifurcations in two parameters ('hes continue "
    "--param2').  The format follows OUT's extension.",
    NULL, NULL, NULL
};

/* Refusals of the options once the kind of plot is known: 0, or the exit
 * status after a message. */
static int check_options(const plot_cli *o, const char *kind)
{
    /* the options of the other kinds of plot would be ignored */
    static const int conv_keys[] = { OPT_TRIALS, OPT_STEPS, OPT_BOX, OPT_PERTURB, OPT_SEED };
    static const char *const conv_names[] = { "trials", "steps", "box", "perturb", "seed" };
    const char *dot = o->out ? strrchr(o->out, '.') : NULL;

    if (!kind) {
        fprintf(stderr, "hes plot: which plot? stability-map, multipliers, convergence, "
                "ess-bench, impact-set, contact-forces, bifurcation, branch-multipliers or "
                "boundary\n");
        return CLI_EXIT_USAGE;
    }
    if (!dot || (strcmp(dot, ".png") != 0 && strcmp(dot, ".svg") != 0)) {
        fprintf(stderr, "hes plot: -o OUT.png or OUT.svg is required\n");
        return CLI_EXIT_USAGE;
    }
    for (size_t k = 0; k < sizeof conv_keys / sizeof *conv_keys; k++)
        if (o->cli.seen[conv_keys[k]] && strcmp(kind, "convergence") != 0) {
            fprintf(stderr, "hes plot %s: --%s is an option of 'hes plot convergence' only\n",
                    kind, conv_names[k]);
            return CLI_EXIT_USAGE;
        }
    if (o->cli.seen[OPT_SAMPLES] && strcmp(kind, "impact-set") != 0) {
        fprintf(stderr, "hes plot %s: --samples is an option of 'hes plot impact-set' only\n",
                kind);
        return CLI_EXIT_USAGE;
    }
    if (o->cli.seen[OPT_Y] && strcmp(kind, "bifurcation") != 0) {
        fprintf(stderr, "hes plot %s: --y is an option of 'hes plot bifurcation' only\n", kind);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(kind, "stability-map") == 0 && (o->cli.params.n > 0 || o->orbit_file)) {
        fprintf(stderr, "hes plot stability-map: %s does not apply: the map draws the sweep "
                "file as it is\n", o->cli.params.n > 0 ? "-p" : "--orbit");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* The pictures of one file or problem named after the kind, without -p or
 * --orbit, and what their refusal says it expects (impact-set: no draw, as
 * it also takes --samples). */
static const struct {
    const char *kind;
    int (*draw)(const char *arg, const char *tmpdir, const char *out);
    const char *expected;
} file_plots[] = {
    { "stability-map", plot_stability_map, "one sweep FILE.csv" },
    { "ess-bench", plot_ess_bench, "one FILE.csv of bench_ess_mujoco (BENCH_CSV=FILE make "
      "bench_mujoco), and no -p or --orbit" },
    { "contact-forces", plot_contact_forces, "one FILE.csv of 'hes invdyn --csv', and no -p "
      "or --orbit" },
    { "bifurcation", NULL, "one FILE.json or FILE.csv of 'hes continue', and no -p or "
      "--orbit" },
    { "branch-multipliers", plot_branch_multipliers, "one FILE.json of 'hes continue --json', "
      "and no -p or --orbit" },
    { "boundary", plot_boundary, "one FILE.json or FILE.csv of 'hes continue --param2', and "
      "no -p or --orbit" },
    { "impact-set", NULL, "one impact PROBLEM (see 'hes list': [impact]), and no -p or "
      "--orbit" },
};

/* multipliers or convergence of PROBLEM or the gait of --orbit. */
static int model_plot(const plot_cli *o, const char *kind, const char *tmpdir)
{
    int rc = CLI_EXIT_OK;

    if (o->cli.n_args != 2 && !(o->orbit_file && o->cli.n_args == 1)) {
        fprintf(stderr, "hes plot %s: expected PROBLEM (or --orbit FILE)\n", kind);
        return CLI_EXIT_USAGE;
    }
    cli_orbit orbit;
    const hes_model *model = cli_model_for(o->cli.n_args == 2 ? o->cli.args[1] : NULL,
                                           o->orbit_file, &orbit, &rc);
    hes_system *sys = model ? cli_system_setup(model, &o->cli.params, &rc) : NULL;
    if (sys)
        rc = kind[0] == 'm' ? plot_multipliers(sys, tmpdir, o->out)
                            : plot_convergence(sys, tmpdir, o->out, &o->conv);
    hes_system_destroy(sys);
    if (model)
        cli_orbit_free(&orbit);
    return rc;
}

/* The picture of the kind the first argument names. */
static int plot(const plot_cli *o, const char *kind, const char *tmpdir)
{
    for (size_t k = 0; k < sizeof file_plots / sizeof *file_plots; k++) {
        if (strcmp(kind, file_plots[k].kind) != 0)
            continue;
        /* (stability-map refused -p and --orbit in check_options) */
        if (o->cli.params.n > 0 || o->orbit_file || o->cli.n_args != 2) {
            fprintf(stderr, "hes plot %s: expected %s\n", kind, file_plots[k].expected);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(kind, "bifurcation") == 0)
            return plot_bifurcation(o->cli.args[1], o->y, tmpdir, o->out);
        if (!file_plots[k].draw)
            return plot_impact_set(o->cli.args[1], o->samples, tmpdir, o->out);
        return file_plots[k].draw(o->cli.args[1], tmpdir, o->out);
    }
    if (strcmp(kind, "multipliers") != 0 && strcmp(kind, "convergence") != 0) {
        fprintf(stderr, "hes plot: unknown plot '%s' (stability-map, multipliers, convergence, "
                "ess-bench, impact-set, contact-forces, bifurcation, branch-multipliers, "
                "boundary)\n",
                kind);
        return CLI_EXIT_USAGE;
    }
    return model_plot(o, kind, tmpdir);
}

int cmd_plot(int argc, char **argv)
{
    plot_cli o = { .conv = { .trials = 20, .steps = 10, .box = 1, .size = 0.01, .seed = 1 } };
    const char *tmpdir = getenv("TMPDIR");
    int rc = cli_parse(&plot_argp, CLI_GROUP_PARAMS, argc, argv, &o.cli);

    if (!tmpdir || !*tmpdir || strlen(tmpdir) > 400)
        tmpdir = "/tmp";
    if (rc == CLI_EXIT_OK && !o.cli.done) {
        const char *kind = o.cli.n_args ? o.cli.args[0] : NULL;
        if ((rc = check_options(&o, kind)) == CLI_EXIT_OK)
            rc = plot(&o, kind, tmpdir);
    }
    cli_args_free(&o.cli);
    return rc;
}
