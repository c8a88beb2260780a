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
 *        squares lines (issue 12's benchmark, BENCH_CSV=FILE make bench_mujoco);
 *   hes plot impact-set IMPACT-PROBLEM [--samples N] -o OUT   the sampled
 *        post-impact set on the first two contacts' normal and tangential
 *        velocities, Anitescu-Potra and sequential outcomes marked (Halm &
 *        Posa Figs. 9 and 11);
 *   hes plot contact-forces FILE.csv -o OUT   the normal forces and friction
 *        ratios along a motion, from `hes invdyn --csv` (issue 14).
 *
 * The program computes and writes the data; gnuplot only draws, into a
 * temporary file that is checked to be a complete picture and then copied
 * to OUT with every write checked (gnuplot itself exits 0 when it cannot
 * write).  A sweep file's '#' lines are skipped.
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
#include "csv_line.h"

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

/* A quoted gnuplot string (single quotes; a single quote itself refused). */
static int safe(const char *s)
{
    return strchr(s, '\'') == NULL && strchr(s, '\n') == NULL;
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

/* ----------------------------------------------------------- stability map */

typedef struct {
    int index, ok;
    double a, b, psi;
} map_point;

static int cmp_index(const void *x, const void *y)
{
    const map_point *p = x, *q = y;
    return (p->index > q->index) - (p->index < q->index);
}

static int stability_map(const char *csv, const char *pic, const char *out, const char *tmpdir)
{
    FILE *f = open_table(csv);
    char names[2][64];
    csv_line l;
    if (!f)
        return CLI_EXIT_USAGE;
    csv_line_init(&l);
    int got_line, bad = 0;
    while ((got_line = csv_line_read(f, &l)) == 1 && l.text[0] == '#' && !l.too_long)
        ; /* the '#' lines of a sweep file */
    /* header: index,A,B,status,psi,... */
    if (got_line != 1 || l.too_long || l.has_nul ||
        sscanf(l.text, "index,%63[^,],%63[^,],status,psi", names[0], names[1]) != 2 ||
        strcmp(names[1], "status") == 0) {
        fprintf(stderr, "hes plot: %s is not a sweep over two parameters (expected a header "
                "index,A,B,status,psi,...)\n", csv);
        csv_line_free(&l);
        fclose(f);
        return CLI_EXIT_USAGE;
    }
    map_point *pts = NULL;
    int n = 0, cap = 0, n_ok = 0;
    while (!bad && (got_line = csv_line_read(f, &l)) == 1) {
        map_point p;
        char status[64];
        if (l.too_long || l.has_nul) {
            fprintf(stderr, "hes plot: %s: line %d is not a row of a sweep\n", csv, l.number);
            bad = CLI_EXIT_USAGE;
            break;
        }
        if (l.text[strspn(l.text, " \t\r\n")] == '\0')
            continue; /* a blank line */
        int got = sscanf(l.text, "%d,%lf,%lf,%63[^,],%lf", &p.index, &p.a, &p.b, status, &p.psi);
        if (got < 4 || p.index < 0 || !isfinite(p.a) || !isfinite(p.b)) {
            fprintf(stderr, "hes plot: %s: line %d is not a row of a sweep over two parameters "
                    "(index,A,B,status,psi,... with finite A and B)\n", csv, l.number);
            bad = CLI_EXIT_USAGE;
            break;
        }
        p.ok = got == 5 && strcmp(status, "ok") == 0 && isfinite(p.psi);
        n_ok += p.ok;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            map_point *np = realloc(pts, sizeof *pts * (size_t)cap);
            if (!np) {
                fprintf(stderr, "hes plot: out of memory\n");
                bad = CLI_EXIT_FAILURE;
                break;
            }
            pts = np;
        }
        pts[n++] = p;
    }
    if (!bad && got_line < 0) {
        fprintf(stderr, "hes plot: %s: %s\n", csv, strerror(errno));
        bad = CLI_EXIT_FAILURE;
    }
    csv_line_free(&l);
    fclose(f);
    if (bad) {
        free(pts);
        return bad;
    }
    if (n < 4) {
        fprintf(stderr, "hes plot: %s has %d points; a map needs a grid of at least 2 x 2\n", csv, n);
        free(pts);
        return CLI_EXIT_USAGE;
    }
    if (n_ok == 0) {
        fprintf(stderr, "hes plot: %s: no successful points to plot (every point of the sweep "
                "failed; see its status and message columns)\n", csv);
        free(pts);
        return CLI_EXIT_USAGE;
    }
    qsort(pts, (size_t)n, sizeof *pts, cmp_index);
    for (int i = 0; i < n; i++)
        if (pts[i].index != i) {
            int twice = pts[i].index < i;
            fprintf(stderr, "hes plot: %s: point %d %s (a complete sweep has the indices 0 to "
                    "%d once each)\n", csv, twice ? pts[i].index : i,
                    twice ? "appears twice" : "is missing", n - 1);
            free(pts);
            return CLI_EXIT_USAGE;
        }
    int nb = 1; /* points per scan line: the second parameter varies fastest */
    while (nb < n && pts[nb].a == pts[0].a)
        nb++;
    if (n % nb != 0 || nb < 2 || n / nb < 2) {
        fprintf(stderr, "hes plot: %s is not a complete grid (--grid A --grid B, every point)\n", csv);
        free(pts);
        return CLI_EXIT_USAGE;
    }
    char data[512];
    snprintf(data, sizeof data, "%s/hes-map-%d.dat", tmpdir, (int)getpid());
    FILE *d = fopen(data, "w");
    if (!d) {
        fprintf(stderr, "hes plot: cannot write %s: %s\n", data, strerror(errno));
        free(pts);
        return CLI_EXIT_FAILURE;
    }
    for (int i = 0; i < n; i++) {
        if (i > 0 && i % nb == 0)
            fputc('\n', d);
        if (pts[i].ok)
            fprintf(d, "%.17g %.17g %.17g\n", pts[i].a, pts[i].b, pts[i].psi);
        else
            fprintf(d, "%.17g %.17g NaN\n", pts[i].a, pts[i].b);
    }
    free(pts);
    int werr = ferror(d) || fflush(d) != 0 ? (errno ? errno : EIO) : 0;
    if (fclose(d) != 0 && !werr)
        werr = errno ? errno : EIO;
    if (werr) {
        fprintf(stderr, "hes plot: cannot write %s: %s\n", data, strerror(werr));
        remove(data);
        return CLI_EXIT_FAILURE;
    }
    FILE *g = open_gnuplot();
    if (!g) {
        remove(data);
        return CLI_EXIT_FAILURE;
    }
    fprintf(g, "set terminal %s\nset output '%s'\n", terminal(out), pic);
    fprintf(g, "set table '%s.cont'\nset contour base\nset cntrparam levels discrete 1\n"
               "unset surface\nset view map\nsplot '%s' using 1:2:3 with lines\nunset table\n"
               "unset contour\nset surface\n", data, data);
    fprintf(g, "set title 'psi over %s and %s (black: psi = 1; stable inside the blue)'\n"
               "set xlabel '%s'\nset ylabel '%s'\nset cblabel 'psi'\n"
               "set palette defined (0 '#08306b', 0.5 '#4292c6', 1 '#f7fbff', 1.5 '#fc9272', 3 '#67000d')\n"
               "set cbrange [0:3]\nset view map\nset key off\n"
               "plot '%s' using 1:2:3 with image, '%s.cont' using 1:2 with lines lw 2 lc rgb 'black'\n",
            names[0], names[1], names[0], names[1], data, data);
    int rc = close_gnuplot(g, pic, out);
    remove(data);
    char cont[sizeof data + 8];
    snprintf(cont, sizeof cont, "%s.cont", data);
    remove(cont);
    return rc;
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
    FILE *f = open_table(csv);
    if (!f)
        return CLI_EXIT_USAGE;
    csv_line l;
    csv_line_init(&l);
    int got_line, n = 0, header = 0, rc = CLI_EXIT_OK, eq_col = -1;
    double N[64], th[64], tm[64], te[64];
    while (rc == CLI_EXIT_OK && (got_line = csv_line_read(f, &l)) == 1) {
        if (l.too_long || l.has_nul) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (l.text[0] == '#' || l.text[strspn(l.text, " \t\r\n")] == '\0')
            continue;
        if (!header) {
            header = strncmp(l.text, "N,hes_s,mujoco_s", 16) == 0;
            if (!header)
                rc = CLI_EXIT_USAGE;
            const char *eq = strstr(l.text, ",eq_hes_s");   /* optional column */
            for (const char *c = l.text; eq && c <= eq; c++)
                eq_col += *c == ',';
            if (eq)
                eq_col++;
            continue;
        }
        te[n] = NAN;
        if (eq_col > 0) {   /* the eq_col-th field (0-based), "nan" when not measured */
            const char *c = l.text;
            for (int k = 0; c && k < eq_col; k++)
                c = (c = strchr(c, ',')) ? c + 1 : NULL;
            if (c)
                te[n] = strtod(c, NULL);
        }
        if (n == 64 || sscanf(l.text, "%lf,%lf,%lf", &N[n], &th[n], &tm[n]) != 3 ||
            !(N[n] >= 1) || !(th[n] > 0) || !(tm[n] > 0) || !isfinite(th[n]) ||
            !isfinite(tm[n])) {
            fprintf(stderr, "hes plot: %s: line %d is not a row N,hes_s,mujoco_s,... with "
                    "N >= 1 and positive finite times\n", csv, l.number);
            rc = CLI_EXIT_USAGE;
            break;
        }
        n++;
    }
    if (rc == CLI_EXIT_OK && got_line < 0) {
        fprintf(stderr, "hes plot: %s: %s\n", csv, strerror(errno));
        rc = CLI_EXIT_FAILURE;
    }
    csv_line_free(&l);
    fclose(f);
    if (rc == CLI_EXIT_USAGE && !header)
        fprintf(stderr, "hes plot: %s is not a table of bench_ess_mujoco (expected a header "
                "N,hes_s,mujoco_s,...)\n", csv);
    if (rc == CLI_EXIT_OK && n < 2) {
        fprintf(stderr, "hes plot: %s has %d rows; the slopes need at least 2\n", csv, n);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    FILE *g = open_gnuplot();
    if (!g)
        return CLI_EXIT_FAILURE;
    int neq = 0;
    for (int i = 0; i < n; i++)
        neq += te[i] > 0 && isfinite(te[i]);
    fprintf(g, "set terminal %s\nset output '%s'\n$d << EOD\n", terminal(out), pic);
    for (int i = 0; i < n; i++) {
        fprintf(g, "%.17g %.17g %.17g ", N[i], 1e3 * th[i], 1e3 * tm[i]);
        if (te[i] > 0 && isfinite(te[i]))
            fprintf(g, "%.17g\n", 1e3 * te[i]);
        else
            fprintf(g, "NaN\n");
    }
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
#define PLOT_MAX_CONTACTS 16
static int contact_forces(const char *csv, const char *pic, const char *out)
{
    FILE *f = open_table(csv);
    if (!f)
        return CLI_EXIT_USAGE;
    csv_line l;
    csv_line_init(&l);
    int got_line, header = 0, rc = CLI_EXIT_OK, nf = 0, nc = 0, rows = 0;
    int fn_col[PLOT_MAX_CONTACTS], ratio_col[PLOT_MAX_CONTACTS], stance_col[PLOT_MAX_CONTACTS];
    int mu_col = -1;
    char names[PLOT_MAX_CONTACTS][64];
    char *fields[512];
    FILE *data = tmpfile();
    if (!data) {
        fclose(f);
        return CLI_EXIT_FAILURE;
    }
    while (rc == CLI_EXIT_OK && (got_line = csv_line_read(f, &l)) == 1) {
        if (l.too_long || l.has_nul) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        int n = csv_split(l.text, fields, 511);
        if (!header) {
            if (n < 4 || n > 511 || strcmp(fields[0], "t") != 0 ||
                strcmp(fields[1], "method") != 0 || strcmp(fields[2], "status") != 0) {
                rc = CLI_EXIT_USAGE;
                break;
            }
            nf = n;
            for (int k = 0; k < n; k++) {
                if (strncmp(fields[k], "fn:", 3) == 0 && nc < PLOT_MAX_CONTACTS) {
                    snprintf(names[nc], sizeof names[nc], "%s", fields[k] + 3);
                    fn_col[nc] = k, ratio_col[nc] = stance_col[nc] = -1;
                    nc++;
                }
                if (strcmp(fields[k], "mu_min") == 0)
                    mu_col = k;
            }
            for (int k = 0; k < n; k++)
                for (int c = 0; c < nc; c++) {
                    if (strncmp(fields[k], "ratio:", 6) == 0 && strcmp(fields[k] + 6, names[c]) == 0)
                        ratio_col[c] = k;
                    if (strncmp(fields[k], "stance:", 7) == 0 && strcmp(fields[k] + 7, names[c]) == 0)
                        stance_col[c] = k;
                }
            header = 1;
            for (int c = 0; c < nc; c++)
                if (ratio_col[c] < 0 || stance_col[c] < 0)
                    header = 0;
            if (!header || nc == 0 || mu_col < 0)
                rc = CLI_EXIT_USAGE;
            continue;
        }
        double v;
        if (n != nf || csv_parse_double(fields[0], &v)) {
            fprintf(stderr, "hes plot: %s: line %d is not a row of the header's %d fields\n",
                    csv, l.number, nf);
            rc = CLI_EXIT_USAGE;
            break;
        }
        fprintf(data, "%.17g", v);
        for (int c = 0; c < nc; c++) {
            double fnv, ra, st;
            if (csv_parse_double(fields[fn_col[c]], &fnv) ||
                csv_parse_double(fields[ratio_col[c]], &ra) ||
                csv_parse_double(fields[stance_col[c]], &st)) {
                fprintf(stderr, "hes plot: %s: line %d has a field that is not a number\n", csv,
                        l.number);
                rc = CLI_EXIT_USAGE;
                break;
            }
            fprintf(data, " %.17g ", fnv);
            if (st != 0 && isfinite(ra))
                fprintf(data, "%.17g", ra);
            else
                fprintf(data, "NaN");
        }
        double mu;
        if (rc == CLI_EXIT_OK && !csv_parse_double(fields[mu_col], &mu) && mu >= 0)
            fprintf(data, " %.17g\n", mu);
        else
            fprintf(data, " NaN\n");
        rows++;
    }
    csv_line_free(&l);
    fclose(f);
    if (rc == CLI_EXIT_USAGE && !header)
        fprintf(stderr, "hes plot: %s is not a table of 'hes invdyn --csv' (expected a header "
                "t,method,status,... with fn:, ratio:, stance: columns and mu_min)\n", csv);
    if (rc == CLI_EXIT_OK && rows < 2) {
        fprintf(stderr, "hes plot: %s has %d rows; a plot needs at least 2\n", csv, rows);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        fclose(data);
        return rc;
    }
    FILE *g = open_gnuplot();
    if (!g) {
        fclose(data);
        return CLI_EXIT_FAILURE;
    }
    fprintf(g, "set terminal %s\nset output '%s'\n$d << EOD\n", terminal(out), pic);
    rewind(data);
    int ch;
    while ((ch = fgetc(data)) != EOF)
        fputc(ch, g);
    fclose(data);
    fprintf(g, "EOD\nset multiplot layout 2,1\nset grid\nset key outside right\n"
               "set title 'contact normal forces (inverse dynamics)'\nset ylabel 'f_n (N)'\n"
               "plot ");
    for (int c = 0; c < nc; c++)
        fprintf(g, "%s$d using 1:%d with lines lw 2 title '%s' noenhanced", c ? ", " : "",
                2 + 2 * c, names[c]);
    fprintf(g, "\nset title 'friction ratio |f_t|/f_n of the stance contacts'\n"
               "set xlabel 't (s)'\nset ylabel 'ratio'\nplot ");
    for (int c = 0; c < nc; c++)
        fprintf(g, "$d using 1:%d with lines lw 1.5 title '%s' noenhanced, ", 3 + 2 * c,
                names[c]);
    fprintf(g, "$d using 1:%d with lines lw 2 dt 2 lc rgb 'black' title 'smallest friction'\n"
               "unset multiplot\n", 2 + 2 * nc);
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
                                 { pb->h, pb->steps, 0, 1 }, 0, 2, 0 };
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
    FILE *g = open_gnuplot();
    if (!g) {
        hes_impact_set_free(&S);
        return CLI_EXIT_FAILURE;
    }
    int k = s.k;
    const char *a = pb->mech->constraints[pb->contacts[0]].name,
               *b = pb->mech->constraints[pb->contacts[1]].name;
    fprintf(g, "set terminal %s\nset output '%s'\n$s << EOD\n", terminal(out),
            pic);
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
    fprintf(g, "set multiplot layout 1,2 title '%s: %d post-impact velocities (Halm and "
               "Posa impulse stepping, h = %g, N = %d)' noenhanced\n"
               "set grid\nset key below\nset format x '%%.3g'\nset format y '%%.3g'\n"
               "set xtics rotate by -35\nset offsets graph 0.05, graph 0.05, graph 0.05, "
               "graph 0.05\n", pb->name, S.n_finished, pb->h, pb->steps);
    for (int panel = 0; panel < 2; panel++) {
        int c = panel ? 3 : 1;
        fprintf(g, "set title '%s velocities'\nset xlabel '%s: u_%s'\nset ylabel '%s: u_%s'\n"
                   "plot $s using %d:%d with points pt 7 ps 0.4 lc rgb '#808080' title 'samples', "
                   "$l0 using %d:%d with points pt 7 ps 2 lc rgb '#2166ac' title "
                   "'Anitescu-Potra', "
                   "$l1 using %d:%d with points pt 5 ps 1.6 lc rgb '#b2182b' title "
                   "'sequential %s first', "
                   "$l2 using %d:%d with points pt 9 ps 1.8 lc rgb '#e6ab02' title "
                   "'sequential %s first'\n",
                panel ? "tangential" : "normal", a, panel ? "t" : "n", b, panel ? "t" : "n", c,
                c + 1, c, c + 1, c, c + 1, a, c, c + 1, k == 2 ? b : "last");
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
    FILE *g = open_gnuplot();
    if (!g) {
        hes_analysis_free(&res);
        return CLI_EXIT_FAILURE;
    }
    double r = 1.1;
    for (int k = 0; k < res.stab.n_mult; k++)
        r = fmax(r, 1.1 * res.stab.abs[k]);
    fprintf(g, "set terminal %s\nset output '%s'\nset size ratio -1\n", terminal(out), pic);
    fprintf(g, "set title 'multipliers of %s: psi = %.6g (%s)'\nset xlabel 'Re'\nset ylabel 'Im'\n"
               "set xrange [%g:%g]\nset yrange [%g:%g]\nset grid\nset parametric\nset trange [0:2*pi]\n"
               "set key bottom right\n"
               "plot cos(t), sin(t) title 'unit circle' lw 2 lc rgb 'gray', "
               "'-' using 1:2 with points pt 7 ps 1.6 lc rgb '#c00000' title 'multipliers'\n",
            hes_system_model(sys)->name, res.stab.psi, hes_verdict_name(res.stab.verdict),
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
    FILE *g = open_gnuplot();
    if (!g) {
        hes_trials_free(&t);
        hes_orbit_free(&orbit);
        return CLI_EXIT_FAILURE;
    }
    fprintf(g, "set terminal %s\nset output '%s'\nset logscale y\nset grid\n", terminal(out), pic);
    fprintf(g, "set title '%s: %d perturbed starts (%s %g), error after each period; %d converged'\n"
               "set xlabel 'period'\nset ylabel 'distance to the orbit'\nset key top right\n",
            hes_system_model(sys)->name, trials, box ? "box" : "ball", size, t.converged);
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
    if (!tmpdir || !*tmpdir || !safe(tmpdir) || strlen(tmpdir) > 400)
        tmpdir = "/tmp";
    if (rc == CLI_EXIT_OK && !kind) {
        fprintf(stderr, "hes plot: which plot? stability-map, multipliers, convergence, "
                "ess-bench, impact-set or contact-forces\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && (!out || !terminal(out) || !safe(out))) {
        fprintf(stderr, "hes plot: -o OUT.png or OUT.svg is required (a name without quotes)\n");
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
        rc = stability_map(argv[optind + 1], pic, out, tmpdir);
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
