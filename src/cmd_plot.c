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
 * the data as data: inline data blocks of numbers it formats itself.  Every
 * text in the script that is not a constant of this file (a name from a
 * table, a model or a robot description; a path) is a string constant made
 * by gp_quote.c, which no byte can break out of, and text is drawn as it
 * is (no enhanced-text markup, so apex_height keeps its underscore).
 * gnuplot only draws, into a temporary file that is checked to be a
 * complete picture and then copied to OUT with every write checked
 * (gnuplot itself exits 0 when it cannot write).
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
#include "gp_quote.h"
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
static const char *terminal(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".png") == 0)
        return "pngcairo size 900,650 font 'sans,11'";
    if (dot && strcmp(dot, ".svg") == 0)
        return "svg size 900,650 font 'sans,11'";
    return NULL;
}

static FILE *open_gnuplot(void)
{
    const char *prog = getenv("HES_GNUPLOT");
    char cmd[600];
    if (!prog || !*prog)
        prog = "gnuplot";
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", prog);
    if (strchr(prog, '\'') || system(cmd) != 0) {
        fprintf(stderr, "hes plot: %s not found: install gnuplot (Debian: gnuplot-nox) or set "
                "HES_GNUPLOT\n", prog);
        return NULL;
    }
    snprintf(cmd, sizeof cmd, "'%s'", prog);
    FILE *g = popen(cmd, "w");
    if (!g)
        fprintf(stderr, "hes plot: cannot run %s: %s\n", prog, strerror(errno));
    else /* (after the fork: gnuplot keeps the default) */
        signal(SIGPIPE, SIG_IGN); /* a gnuplot that quits early: a write error, not a kill */
    return g;
}

/* gnuplot's picture pic is complete: a PNG ends with its IEND chunk, an SVG
 * with </svg>. */
static int complete_picture(const char *pic)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char tail[64];
    FILE *f = fopen(pic, "rb");
    if (!f)
        return 0;
    long n = fseek(f, -(long)sizeof tail, SEEK_END) == 0 ? (long)sizeof tail : 0;
    if (n == 0)
        rewind(f);
    n = (long)fread(tail, 1, sizeof tail, f);
    fclose(f);
    const char *dot = strrchr(pic, '.');
    if (dot && strcmp(dot, ".png") == 0)
        return n >= 12 && memcmp(tail + n - 12, iend, 12) == 0;
    for (long i = 0; i + 6 <= n; i++)
        if (memcmp(tail + i, "</svg>", 6) == 0)
            return 1;
    return 0;
}

/* Copies the picture pic to out, every write checked; on failure says why
 * and removes a regular out rather than leave it cut. */
static int deliver(const char *pic, const char *out)
{
    char buf[65536];
    struct stat st;
    int err = 0, regular = 0;
    FILE *in = fopen(pic, "rb"), *o = in ? fopen(out, "wb") : NULL;
    if (!in || !o) {
        int e = errno;
        if (in)
            fclose(in);
        fprintf(stderr, "hes plot: cannot write %s: %s\n", in ? out : pic, strerror(e));
        return CLI_EXIT_FAILURE;
    }
    regular = fstat(fileno(o), &st) == 0 && S_ISREG(st.st_mode);
    for (size_t n; !err && (n = fread(buf, 1, sizeof buf, in)) > 0;)
        if (fwrite(buf, 1, n, o) != n)
            err = errno ? errno : EIO;
    if (!err && ferror(in))
        err = EIO;
    if (!err && fflush(o) != 0)
        err = errno ? errno : EIO;
    errno = 0;
    if (fclose(o) != 0 && !err)
        err = errno ? errno : EIO;
    fclose(in);
    if (!err)
        return CLI_EXIT_OK;
    int removed = regular && remove(out) == 0;
    fprintf(stderr, "hes plot: cannot write %s: %s%s\n", out, strerror(err),
            removed ? " (the incomplete file is removed)" : "");
    return CLI_EXIT_FAILURE;
}

/* gnuplot done: its commands all written, it exited 0, and its picture pic
 * is complete; then the picture goes to out. */
static int close_gnuplot(FILE *g, const char *pic, const char *out)
{
    int write_err = ferror(g) || fflush(g) != 0;
    int status = pclose(g);
    if (write_err || status != 0) {
        fprintf(stderr, "hes plot: gnuplot %s\n", write_err ? "stopped reading its commands"
                                                            : "failed (its messages are above)");
        return CLI_EXIT_FAILURE;
    }
    if (!complete_picture(pic)) {
        fprintf(stderr, "hes plot: gnuplot did not write a complete picture to %s (is the disk "
                "full?)\n", pic);
        return CLI_EXIT_FAILURE;
    }
    return deliver(pic, out);
}

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

/* gnuplot started on a picture: its terminal for out's extension, drawing
 * into pic; text as it is (no enhanced-text markup: an underscore is an
 * underscore, not a subscript).  Every string after this goes through
 * gp_quote. */
static FILE *start_gnuplot(const char *pic, const char *out)
{
    FILE *g = open_gnuplot();
    if (!g)
        return NULL;
    fprintf(g, "set terminal %s\nset termoption noenhanced\nset output ", terminal(out));
    gp_quote(g, pic);
    fputc('\n', g);
    return g;
}

/* A number for a gnuplot data block, NaN where it is not finite. */
static void put_number(FILE *g, double v, const char *after)
{
    if (isfinite(v))
        fprintf(g, "%.17g%s", v, after);
    else
        fprintf(g, "NaN%s", after);
}

/* ----------------------------------------------------------- stability map */

static int stability_map(const char *csv, const char *pic, const char *out)
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
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        plot_map_free(&m);
        return CLI_EXIT_FAILURE;
    }
    /* the grid as a data block, scan lines separated by blank lines; the
     * psi = 1 contour into a second data block */
    fputs("$map << EOD\n", g);
    for (int i = 0; i < m.n; i++) {
        if (i > 0 && i % m.nb == 0)
            fputc('\n', g);
        put_number(g, m.a[i], " ");
        put_number(g, m.b[i], " ");
        put_number(g, m.psi[i], "\n");
    }
    fputs("EOD\nset table $cont\nset contour base\nset cntrparam levels discrete 1\n"
          "unset surface\nset view map\nsplot $map using 1:2:3 with lines\nunset table\n"
          "unset contour\nset surface\nset title ", g);
    gp_quotef(g, "psi over %s and %s (black: psi = 1; stable inside the blue)", m.names[0],
              m.names[1]);
    fputs("\nset xlabel ", g);
    gp_quote(g, m.names[0]);
    fputs("\nset ylabel ", g);
    gp_quote(g, m.names[1]);
    fputs("\nset cblabel 'psi'\n"
          "set palette defined (0 '#08306b', 0.5 '#4292c6', 1 '#f7fbff', 1.5 '#fc9272', 3 '#67000d')\n"
          "set cbrange [0:3]\nset view map\nset key off\n"
          "plot $map using 1:2:3 with image, $cont using 1:2 with lines lw 2 lc rgb 'black'\n", g);
    plot_map_free(&m);
    return close_gnuplot(g, pic, out);
}

/* ------------------------------------------------------- ess-bench */

/* The table of `BENCH_CSV=FILE make bench_mujoco` (tests/bench/
 * bench_ess_mujoco.c): '#' lines (one with the slopes), the header
 * N,hes_s,mujoco_s,..., then one row per N.  Drawn: median milliseconds per
 * run against N for both engines, points and their least-squares lines
 * (the slopes: the marginal cost per contact), and, when the table has the
 * column eq_hes_s, hes at MuJoCo's accuracy on the plate. */
static int ess_bench(const char *csv, const char *pic, const char *out)
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
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        plot_bench_free(&b);
        return CLI_EXIT_FAILURE;
    }
    int neq = 0;
    fputs("$d << EOD\n", g);
    for (int i = 0; i < b.n; i++) {
        neq += isfinite(b.eq_hes_s[i]);
        put_number(g, b.N[i], " ");
        put_number(g, 1e3 * b.hes_s[i], " ");
        put_number(g, 1e3 * b.mujoco_s[i], " ");
        put_number(g, 1e3 * b.eq_hes_s[i], "\n");
    }
    plot_bench_free(&b);
    fprintf(g, "EOD\n"
               "fh(x) = ah + bh * x\nfm(x) = am + bm * x\n"
               "set fit quiet nolog\nfit fh(x) $d using 1:2 via ah, bh\n"
               "fit fm(x) $d using 1:3 via am, bm\n"
               "set title 'plate on N legs: median wall time per run (lines: least squares)'\n"
               "set xlabel 'contacts N (legs)'\nset ylabel 'milliseconds per 2 s simulated'\n"
               "set key top left\nset grid\nset yrange [0:*]\n"
               "plot $d using 1:2 with points pt 7 ps 1.3 lc rgb '#08519c' title 'hes (ESS)', "
               "fh(x) with lines lw 2 lc rgb '#08519c' title sprintf('hes: %%.0f us per contact', 1e3 * bh), "
               "$d using 1:3 with points pt 5 ps 1.3 lc rgb '#a50f15' title 'MuJoCo', "
               "fm(x) with lines lw 2 lc rgb '#a50f15' title sprintf('MuJoCo: %%.0f us per contact', 1e3 * bm)%s\n",
            neq >= 2 ? ", $d using 1:4 with linespoints pt 9 ps 1.3 dt 2 lc rgb '#41ab5d' "
                       "title 'hes at MuJoCo''s plate accuracy (eps per N)'" : "");
    return close_gnuplot(g, pic, out);
}

/* ------------------------------------------------- contact-forces */

/* The table of `hes invdyn --csv`: header t,method,status,tau...,fn:C...,
 * ...,ratio:C...,stance:C...,mu_min,slip.  Drawn: the normal forces of
 * every contact against t (top) and the friction ratios |f_t|/f_n of the
 * stance contacts with the smallest friction of each node (bottom). */
static int contact_forces(const char *csv, const char *pic, const char *out)
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
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        plot_forces_free(&p);
        return CLI_EXIT_FAILURE;
    }
    int nc = p.n_contacts;
    /* columns: t, then f_n and the ratio of each contact, then mu_min */
    fputs("$d << EOD\n", g);
    for (int r = 0; r < p.rows; r++) {
        put_number(g, p.t[r], " ");
        for (int c = 0; c < nc; c++) {
            put_number(g, p.fn[(size_t)r * nc + c], " ");
            put_number(g, p.ratio[(size_t)r * nc + c], " ");
        }
        put_number(g, p.mu_min[r], "\n");
    }
    fputs("EOD\nset multiplot layout 2,1\nset grid\nset key outside right\n"
          "set title 'contact normal forces (inverse dynamics)'\nset ylabel 'f_n (N)'\n"
          "plot ", g);
    for (int c = 0; c < nc; c++) {
        fprintf(g, "%s$d using 1:%d with lines lw 2 title ", c ? ", " : "", 2 + 2 * c);
        gp_quote(g, p.names[c]);
    }
    fputs("\nset title 'friction ratio |f_t|/f_n of the stance contacts'\n"
          "set xlabel 't (s)'\nset ylabel 'ratio'\nplot ", g);
    for (int c = 0; c < nc; c++) {
        fprintf(g, "$d using 1:%d with lines lw 1.5 title ", 3 + 2 * c);
        gp_quote(g, p.names[c]);
        fputs(", ", g);
    }
    fprintf(g, "$d using 1:%d with lines lw 2 dt 2 lc rgb 'black' title 'smallest friction'\n"
               "unset multiplot\n", 2 + 2 * nc);
    plot_forces_free(&p);
    return close_gnuplot(g, pic, out);
}

/* ------------------------------------------------------- impact-set */

/* The paper's Fig. 9/11 picture of an impact problem: the sampled
 * post-impact velocities projected on the first two contacts' normals (left)
 * and tangents (right), with the Anitescu-Potra and sequential outcomes
 * marked. */
static int impact_set_plot(const char *name, int samples, const char *pic, const char *out)
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
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        hes_impact_set_free(&S);
        return CLI_EXIT_FAILURE;
    }
    int k = s.k;
    const char *a = pb->mech->constraints[pb->contacts[0]].name,
               *b = pb->mech->constraints[pb->contacts[1]].name;
    fputs("$s << EOD\n", g);
    for (int i = 0; i < S.samples; i++)
        if (S.finished[i]) {
            const double *u = S.u + (size_t)i * 2 * k;
            fprintf(g, "%.10g %.10g %.10g %.10g\n", u[0], u[1], u[k], u[k + 1]);
        }
    fprintf(g, "EOD\n");
    for (int j = 0; j < 3; j++) {
        fprintf(g, "$l%d << EOD\n", j);
        if (outs[j].status == HES_OK)
            fprintf(g, "%.10g %.10g %.10g %.10g\n", outs[j].u[0], outs[j].u[1], outs[j].u[k],
                    outs[j].u[k + 1]);
        else
            fprintf(g, "NaN NaN NaN NaN\n");
        fprintf(g, "EOD\n");
    }
    fputs("set multiplot layout 1,2 title ", g);
    gp_quotef(g, "%s: %d post-impact velocities (Halm and Posa impulse stepping, h = %g, N = %d)",
              pb->name, S.n_finished, pb->h, pb->steps);
    fputs("\nset grid\nset key below\nset format x '%.3g'\nset format y '%.3g'\n"
          "set xtics rotate by -35\nset offsets graph 0.05, graph 0.05, graph 0.05, "
          "graph 0.05\n", g);
    for (int panel = 0; panel < 2; panel++) {
        int c = panel ? 3 : 1;
        const char *u = panel ? "t" : "n";
        fprintf(g, "set title '%s velocities'\nset xlabel ", panel ? "tangential" : "normal");
        gp_quotef(g, "%s: u_%s", a, u);
        fputs("\nset ylabel ", g);
        gp_quotef(g, "%s: u_%s", b, u);
        fprintf(g, "\nplot $s using %d:%d with points pt 7 ps 0.4 lc rgb '#808080' title "
                   "'samples', $l0 using %d:%d with points pt 7 ps 2 lc rgb '#2166ac' title "
                   "'Anitescu-Potra', $l1 using %d:%d with points pt 5 ps 1.6 lc rgb '#b2182b' "
                   "title ", c, c + 1, c, c + 1, c, c + 1);
        gp_quotef(g, "sequential %s first", a);
        fprintf(g, ", $l2 using %d:%d with points pt 9 ps 1.8 lc rgb '#e6ab02' title ", c, c + 1);
        gp_quotef(g, "sequential %s first", k == 2 ? b : "last");
        fputc('\n', g);
    }
    fprintf(g, "unset multiplot\n");
    hes_impact_set_free(&S);
    return close_gnuplot(g, pic, out);
}

/* ------------------------------------------- multipliers and convergence */

static int multipliers(hes_system *sys, const char *pic, const char *out)
{
    hes_analysis res;
    hes_status st = hes_analyze(sys, 0, &res);
    if (st != HES_OK)
        return cli_report_status(st, sys);
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        hes_analysis_free(&res);
        return CLI_EXIT_FAILURE;
    }
    double r = 1.1;
    for (int k = 0; k < res.stab.n_mult; k++)
        r = fmax(r, 1.1 * res.stab.abs[k]);
    fputs("set size ratio -1\nset title ", g);
    gp_quotef(g, "multipliers of %s: psi = %.6g (%s)", hes_system_model(sys)->name,
              res.stab.psi, hes_verdict_name(res.stab.verdict));
    fprintf(g, "\nset xlabel 'Re'\nset ylabel 'Im'\n"
               "set xrange [%g:%g]\nset yrange [%g:%g]\nset grid\nset parametric\nset trange [0:2*pi]\n"
               "set key bottom right\n"
               "plot cos(t), sin(t) title 'unit circle' lw 2 lc rgb 'gray', "
               "'-' using 1:2 with points pt 7 ps 1.6 lc rgb '#c00000' title 'multipliers'\n",
            -r, r, -r, r);
    for (int k = 0; k < res.stab.n_mult; k++)
        fprintf(g, "%.17g %.17g\n", res.stab.re[k], res.stab.im[k]);
    fputs("e\n", g);
    hes_analysis_free(&res);
    return close_gnuplot(g, pic, out);
}

static int convergence(hes_system *sys, const char *pic, const char *out, int trials, int steps, double size,
                       int box, unsigned long seed)
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
    FILE *g = start_gnuplot(pic, out);
    if (!g) {
        hes_trials_free(&t);
        hes_orbit_free(&orbit);
        return CLI_EXIT_FAILURE;
    }
    fputs("set logscale y\nset grid\nset title ", g);
    gp_quotef(g, "%s: %d perturbed starts (%s %g), error after each period; %d converged",
              hes_system_model(sys)->name, trials, box ? "box" : "ball", size, t.converged);
    fputs("\nset xlabel 'period'\nset ylabel 'distance to the orbit'\nset key top right\n", g);
    fputs("plot ", g);
    for (int i = 0; i < trials; i++)
        fprintf(g, "'-' using 1:2 with lines lc rgb '#9ecae1' notitle, ");
    fputs("'-' using 1:2 with linespoints lw 3 pt 7 lc rgb '#08519c' title 'mean of the trials that "
          "completed'\n", g);
    for (int i = 0; i < trials; i++) {
        const hes_trial *tr = &t.trials[i];
        for (int k = 0; k < tr->steps_completed; k++)
            fprintf(g, "%d %.17g\n", k + 1, fmax(tr->error[k], 1e-300));
        fputs(tr->steps_completed ? "e\n" : "0 NaN\ne\n", g);
    }
    for (int k = 0; t.n_complete && k < steps; k++)
        fprintf(g, "%d %.17g\n", k + 1, fmax(t.mean_error[k], 1e-300));
    fputs("e\n", g);
    hes_trials_free(&t);
    hes_orbit_free(&orbit);
    return close_gnuplot(g, pic, out);
}

/* A new file in tmpdir, with out's extension, for gnuplot to draw into. */
static int temp_picture(char *pic, size_t len, const char *tmpdir, const char *out)
{
    const char *ext = strrchr(out, '.');
    snprintf(pic, len, "%s/hes-plot-XXXXXX%s", tmpdir, ext);
    int fd = mkstemps(pic, (int)strlen(ext));
    if (fd < 0) {
        fprintf(stderr, "hes plot: cannot create a file in %s: %s\n", tmpdir, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
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
    char pic[600];
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
    if (rc == CLI_EXIT_OK && (!out || !terminal(out))) {
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
        if (temp_picture(pic, sizeof pic, tmpdir, out) != 0)
            return CLI_EXIT_FAILURE;
        rc = stability_map(argv[optind + 1], pic, out);
        remove(pic);
        return rc;
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "ess-bench") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot ess-bench: expected one FILE.csv of bench_ess_mujoco "
                    "(BENCH_CSV=FILE make bench_mujoco), and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        if (temp_picture(pic, sizeof pic, tmpdir, out) != 0)
            return CLI_EXIT_FAILURE;
        rc = ess_bench(argv[optind + 1], pic, out);
        remove(pic);
        return rc;
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "contact-forces") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot contact-forces: expected one FILE.csv of 'hes invdyn "
                    "--csv', and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        if (temp_picture(pic, sizeof pic, tmpdir, out) != 0)
            return CLI_EXIT_FAILURE;
        rc = contact_forces(argv[optind + 1], pic, out);
        remove(pic);
        return rc;
    }
    if (rc == CLI_EXIT_OK && strcmp(kind, "impact-set") == 0) {
        int extra = params.n > 0 || orbit_file || argc - optind != 2;
        cli_assignments_free(&params);
        if (extra) {
            fprintf(stderr, "hes plot impact-set: expected one impact PROBLEM (see 'hes list': "
                    "[impact]), and no -p or --orbit\n");
            return CLI_EXIT_USAGE;
        }
        if (temp_picture(pic, sizeof pic, tmpdir, out) != 0)
            return CLI_EXIT_FAILURE;
        rc = impact_set_plot(argv[optind + 1], samples, pic, out);
        remove(pic);
        return rc;
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
    if (sys && temp_picture(pic, sizeof pic, tmpdir, out) != 0) {
        rc = CLI_EXIT_FAILURE;
    } else if (sys) {
        rc = kind[0] == 'm' ? multipliers(sys, pic, out)
                            : convergence(sys, pic, out, trials, steps, size, box, seed);
        remove(pic);
    }
    hes_system_destroy(sys);
    if (model)
        cli_orbit_free(&orbit);
    return rc;
}
