/*
 * plot_csv.c - the pictures `hes plot` draws of a CSV table (cmd_plot.h),
 * read by plot_table.c and drawn by gnuplot_run.c: stability-map (psi over
 * the two parameters of a `hes sweep --grid A --grid B` file, with the
 * psi = 1 contour), ess-bench (the ESS integrator's time against contacts
 * beside MuJoCo's) and contact-forces (the normal forces and friction
 * ratios of `hes invdyn --csv`).  Each script is a constant: the table's
 * names reach gnuplot as data, never as code.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_plot.h"
#include "plot_table.h"

/* csv opened for reading by hes_input_open (regular files only, never
 * blocking, at most HES_INPUT_MAX bytes), or NULL after saying why. */
static FILE *open_table(const char *csv)
{
    hes_error msg;
    int fd;
    if (hes_input_open(csv, 0, &fd, NULL, &msg) != HES_OK) {
        fprintf(stderr, "hes plot: %s\n", msg.message);
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
        gp_number(g, m->a[i], " ");
        gp_number(g, m->b[i], " ");
        gp_number(g, m->psi[i], "\n");
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

int plot_stability_map(const char *csv, const char *tmpdir, const char *out)
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
    rc = gp_picture(tmpdir, out, map_data, &m, map_script);
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
        gp_number(g, b->N[i], " ");
        gp_number(g, 1e3 * b->hes_s[i], " ");
        gp_number(g, 1e3 * b->mujoco_s[i], " ");
        gp_number(g, 1e3 * b->eq_hes_s[i], "\n");
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

int plot_ess_bench(const char *csv, const char *tmpdir, const char *out)
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
    rc = gp_picture(tmpdir, out, bench_data, &b, neq >= 2 ? bench_eq_script : bench_script);
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
        gp_number(g, p->t[row], " ");
        for (int c = 0; c < nc; c++) {
            gp_number(g, p->fn[(size_t)row * nc + c], " ");
            gp_number(g, p->ratio[(size_t)row * nc + c], " ");
        }
        gp_number(g, p->mu_min[row], "\n");
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

int plot_contact_forces(const char *csv, const char *tmpdir, const char *out)
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
    rc = gp_picture(tmpdir, out, forces_data, &p, forces_script);
    plot_forces_free(&p);
    return rc;
}
