/*
 * plot_bifurcation.c - the pictures `hes plot` draws of the output of
 * `hes continue` (cmd_plot.h), its JSON document or its CSV table:
 *
 *   bifurcation         the branches with the parameter on x and psi, the
 *                       period or a section state on y: stable stretches
 *                       solid, unstable or marginal ones dashed, the
 *                       labelled points marked with their label, psi = 1
 *                       as a line when y is psi;
 *   branch-multipliers  every point's nontrivial multipliers in the
 *                       complex plane, coloured by the parameter, with the
 *                       unit circle (the JSON document only: the CSV table
 *                       has no multipliers);
 *   boundary            the curves of --param2 (the points with a second
 *                       parameter's value) in the plane of the two
 *                       parameters, a line per curve named by its label,
 *                       the branches' labelled points marked.
 *
 * The first two draw the branches and leave the curves out.
 *
 * Whatever the file holds reaches gnuplot as data: numbers in data files,
 * the parameter's and the state's names as the script's arguments, and of
 * the labels only those of the library's list (hes_label_name), refused
 * else; the script is assembled from the program's constant pieces alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/csv_line.h"
#include "cmd_plot.h"

#define CMD "hes plot"
#define MAX_LABELS 32

/* The points of every branch of a file, in order (and with want_curves
 * those of its curves). */
typedef struct {
    char *param, *param2;        /* param2: "second parameter" where the file names none */
    int n_states;
    char **state_names;
    int n, cap;                  /* points */
    int *branch, *label, *verdict; /* label: 0 none, else its hes_label; verdict 0 stable,
                                      1 unstable, 2 marginal */
    double *value, *period, *psi, *x; /* x: n x n_states, row-major */
    int *curve;                  /* 1: a point of a curve */
    double *value2;              /* its second parameter (NaN on a branch) */
    int want_curves;             /* read the curves too (else they are skipped) */
    int n_mult, cap_mult;        /* multipliers of every point (JSON only) */
    double *re, *im, *at;        /* at: the parameter of the point of each */
    int have_mult;
} bif_table;

static void bif_free(bif_table *t)
{
    for (int k = 0; t->state_names && k < t->n_states; k++)
        free(t->state_names[k]);
    free(t->state_names);
    free(t->param);
    free(t->param2);
    free(t->curve); free(t->value2);
    free(t->branch); free(t->label); free(t->verdict);
    free(t->value); free(t->period); free(t->psi); free(t->x);
    free(t->re); free(t->im); free(t->at);
    memset(t, 0, sizeof *t);
}

/* *p resized to n elements of size bytes: 0, or -1 out of memory. */
static int resize(void *pp, size_t n, size_t size)
{
    void **p = pp, *q = n ? realloc(*p, n * size) : *p;
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Room for one more point: 0, or -1 out of memory. */
static int grow(bif_table *t)
{
    if (t->n < t->cap)
        return 0;
    size_t cap = t->cap ? 2 * (size_t)t->cap : 64;
    if (cap > 10000000)
        return -1;
    if (resize(&t->branch, cap, sizeof *t->branch) || resize(&t->label, cap, sizeof *t->label) ||
        resize(&t->verdict, cap, sizeof *t->verdict) ||
        resize(&t->value, cap, sizeof *t->value) || resize(&t->period, cap, sizeof *t->period) ||
        resize(&t->psi, cap, sizeof *t->psi) || resize(&t->curve, cap, sizeof *t->curve) ||
        resize(&t->value2, cap, sizeof *t->value2) ||
        resize(&t->x, cap * (size_t)(t->n_states ? t->n_states : 1), sizeof *t->x))
        return -1;
    t->cap = (int)cap;
    return 0;
}

static int add_mult(bif_table *t, double re, double im, double at)
{
    if (t->n_mult == t->cap_mult) {
        int cap = t->cap_mult ? 2 * t->cap_mult : 256;
        double *a = realloc(t->re, sizeof *a * (size_t)cap);
        if (a) t->re = a;
        double *b = a ? realloc(t->im, sizeof *b * (size_t)cap) : NULL;
        if (b) t->im = b;
        double *c = b ? realloc(t->at, sizeof *c * (size_t)cap) : NULL;
        if (!c)
            return -1;
        t->at = c;
        t->cap_mult = cap;
    }
    t->re[t->n_mult] = re;
    t->im[t->n_mult] = im;
    t->at[t->n_mult++] = at;
    return 0;
}

/* A label's hes_label, 0 for none ("" or null), -1 when it is not one of
 * the library's. */
static int label_of(const char *s)
{
    if (!s || !*s)
        return 0;
    for (int l = 1; l < MAX_LABELS; l++) {
        const char *name = hes_label_name((hes_label)l);
        if (strcmp(name, "?") == 0)
            break;
        if (strcmp(name, s) == 0)
            return l;
    }
    return -1;
}

static int verdict_of(const char *s)
{
    return !s ? -1 : strcmp(s, "stable") == 0 ? 0 : strcmp(s, "unstable") == 0 ? 1
                   : strcmp(s, "marginal") == 0 ? 2 : -1;
}

/* ------------------------------------------------------------ reading */

/* A number of the document: a number, or null (NaN); -1 otherwise. */
static int json_num(const json_t *v, double *out)
{
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

static int read_json(FILE *f, bif_table *t, char *msg, size_t len)
{
    json_error_t je;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        snprintf(msg, len, "line %d: %s", je.line, je.text);
        return CLI_EXIT_USAGE;
    }
    int rc = CLI_EXIT_USAGE;
    json_t *param = json_object_get(doc, "param"), *names = json_object_get(doc, "state_names"),
           *branches = json_object_get(doc, "branches");
    if (!json_is_string(param) || !json_is_array(names) || !json_is_array(branches)) {
        snprintf(msg, len, "not the JSON document of 'hes continue' (\"param\", "
                 "\"state_names\" and \"branches\")");
        goto out;
    }
    t->have_mult = 1;
    t->n_states = (int)json_array_size(names);
    json_t *param2 = json_object_get(doc, "param2");
    if (!(t->param2 = strdup(json_is_string(param2) ? json_string_value(param2)
                                                    : "second parameter")) ||
        !(t->param = strdup(json_string_value(param))) ||
        !(t->state_names = calloc((size_t)t->n_states + 1, sizeof *t->state_names)))
        goto nomem;
    for (int k = 0; k < t->n_states; k++) {
        const char *s = json_string_value(json_array_get(names, k));
        if (!s) {
            snprintf(msg, len, "state_names[%d] is not a string", k);
            goto out;
        }
        if (!(t->state_names[k] = strdup(s)))
            goto nomem;
    }
    for (size_t b = 0; b < json_array_size(branches); b++) {
        json_t *pts = json_object_get(json_array_get(branches, b), "points"),
               *kind = json_object_get(json_array_get(branches, b), "kind");
        const char *k = json_string_value(kind);
        int curve = k && strcmp(k, "curve") == 0;
        if (!json_is_array(pts)) {
            snprintf(msg, len, "branch %zu has no \"points\"", b);
            goto out;
        }
        if (kind && !curve && (!k || strcmp(k, "branch") != 0)) {
            snprintf(msg, len, "branch %zu: \"kind\" is neither \"branch\" nor \"curve\"", b);
            goto out;
        }
        if (curve && !t->want_curves)
            continue;
        for (size_t i = 0; i < json_array_size(pts); i++) {
            json_t *p = json_array_get(pts, i), *x0 = json_object_get(p, "x0"),
                   *mult = json_object_get(p, "multipliers"), *lab = json_object_get(p, "label");
            if (grow(t))
                goto nomem;
            int n = t->n;
            t->branch[n] = (int)b;
            t->curve[n] = curve;
            t->value2[n] = NAN;
            if (curve && (json_num(json_object_get(p, "value2"), &t->value2[n]) ||
                          !isfinite(t->value2[n]))) {
                snprintf(msg, len, "point %zu of curve %zu: no finite \"value2\"", i, b);
                goto out;
            }
            t->label[n] = json_is_null(lab) ? 0 : label_of(json_string_value(lab));
            t->verdict[n] = verdict_of(json_string_value(json_object_get(p, "verdict")));
            if (json_num(json_object_get(p, "value"), &t->value[n]) ||
                json_num(json_object_get(p, "period"), &t->period[n]) ||
                json_num(json_object_get(p, "psi"), &t->psi[n]) || !isfinite(t->value[n]) ||
                t->verdict[n] < 0 || !json_is_array(x0) ||
                (int)json_array_size(x0) != t->n_states || !json_is_array(mult)) {
                snprintf(msg, len, "point %zu of branch %zu: a value, period, psi, verdict, "
                         "x0 or multipliers missing or malformed", i, b);
                goto out;
            }
            if (t->label[n] < 0) {
                snprintf(msg, len, "point %zu of branch %zu: a label that 'hes continue' does "
                         "not write", i, b);
                goto out;
            }
            for (int k = 0; k < t->n_states; k++)
                if (json_num(json_array_get(x0, k), &t->x[(size_t)n * t->n_states + k])) {
                    snprintf(msg, len, "point %zu of branch %zu: x0[%d] is not a number", i, b,
                             k);
                    goto out;
                }
            for (size_t k = 0; k < json_array_size(mult); k++) {
                double re, im;
                json_t *m = json_array_get(mult, k);
                if (json_num(json_object_get(m, "re"), &re) ||
                    json_num(json_object_get(m, "im"), &im)) {
                    snprintf(msg, len, "point %zu of branch %zu: multiplier %zu malformed", i, b,
                             k);
                    goto out;
                }
                if (add_mult(t, re, im, t->value[n]))
                    goto nomem;
            }
            t->n++;
        }
        /* an orbit of several returns: the state after each other section
           event as a series of its own (a prong of the diagram), drawn like
           the branch; the last return's state is x0 */
        size_t R = json_array_size(json_object_get(json_array_get(pts, 0), "xr"));
        for (size_t j = 0; !curve && R > 1 && j + 1 < R; j++)
            for (size_t i = 0; i < json_array_size(pts); i++) {
                json_t *p = json_array_get(pts, i), *xr = json_object_get(p, "xr");
                json_t *xj = json_array_get(xr, j);
                if (json_array_size(xr) != R || (int)json_array_size(xj) != t->n_states) {
                    snprintf(msg, len, "point %zu of branch %zu: \"xr\" malformed", i, b);
                    goto out;
                }
                if (grow(t))
                    goto nomem;
                int n = t->n;
                t->branch[n] = -1 - (int)(b * 64 + j);   /* a series of its own */
                t->curve[n] = 0;
                t->value2[n] = NAN;
                t->label[n] = 0;
                t->verdict[n] = verdict_of(json_string_value(json_object_get(p, "verdict")));
                if (json_num(json_object_get(p, "value"), &t->value[n]) ||
                    json_num(json_object_get(p, "period"), &t->period[n]) ||
                    json_num(json_object_get(p, "psi"), &t->psi[n]) || t->verdict[n] < 0) {
                    snprintf(msg, len, "point %zu of branch %zu malformed", i, b);
                    goto out;
                }
                for (int k = 0; k < t->n_states; k++)
                    if (json_num(json_array_get(xj, (size_t)k),
                                 &t->x[(size_t)n * t->n_states + k])) {
                        snprintf(msg, len, "point %zu of branch %zu: xr[%zu][%d] is not a "
                                 "number", i, b, j, k);
                        goto out;
                    }
                t->n++;
            }
    }
    rc = CLI_EXIT_OK;
    goto out;
nomem:
    snprintf(msg, len, "out of memory");
    rc = CLI_EXIT_FAILURE;
out:
    json_decref(doc);
    return rc;
}

/* The CSV of `hes continue --csv`: these columns (value2 left out by
 * older versions), then the state names, then margin_<transition> per
 * guard. */
static const char *const csv_columns[] = { "branch", "returns", "index", "label", "detail",
                                           "value", "value2", "s", "period", "psi", "verdict",
                                           "crossing" };
#define N_CSV_COLUMNS 12
#define CSV_VALUE2 6

/* An optional number of the table: "" is NaN. */
static int csv_num(const char *s, double *v)
{
    if (!*s) {
        *v = NAN;
        return 0;
    }
    return hes__csv_parse_double(s, v);
}

static int read_csv(FILE *f, bif_table *t, char *msg, size_t len)
{
    csv_line l;
    char **fields = NULL;
    int rc = CLI_EXIT_USAGE, nf = 0;

    hes__csv_line_init(&l);
    int got = hes__csv_line_read(f, &l);
    if (got != 1 || l.too_long || l.has_nul) {
        snprintf(msg, len, "no header line");
        goto out;
    }
    if (l.len && l.text[l.len - 1] == '\r')
        l.text[--l.len] = '\0';
    for (const char *c = l.text; *c; c++)
        nf += *c == ',';
    nf++;
    if (!(fields = malloc(sizeof *fields * (size_t)(nf + 1))))
        goto nomem;
    if (hes__csv_split(l.text, fields, nf) != nf || nf < N_CSV_COLUMNS - 1) {
        snprintf(msg, len, "not the CSV of 'hes continue --csv' (its header starts branch,"
                 "returns,index,label,...)");
        goto out;
    }
    /* col[k]: the field of csv_columns[k] (-1: value2 absent) */
    int col[N_CSV_COLUMNS], nc = 0;
    for (int k = 0; k < N_CSV_COLUMNS; k++) {
        if (k == CSV_VALUE2 && strcmp(hes__csv_trim(fields[nc]), "value2") != 0) {
            col[k] = -1;
            continue;
        }
        if (nc >= nf || strcmp(hes__csv_trim(fields[nc]), csv_columns[k]) != 0) {
            snprintf(msg, len, "not the CSV of 'hes continue --csv': column %d is not '%s'",
                     nc + 1, csv_columns[k]);
            goto out;
        }
        col[k] = nc++;
    }
    int n_margins = 0;
    while (nf - n_margins > nc && strncmp(hes__csv_trim(fields[nf - n_margins - 1]), "margin_",
                                          7) == 0)
        n_margins++;
    t->n_states = nf - nc - n_margins;
    if (!(t->param = strdup("parameter")) || !(t->param2 = strdup("second parameter")) ||
        !(t->state_names = calloc((size_t)t->n_states + 1, sizeof *t->state_names)))
        goto nomem;
    for (int k = 0; k < t->n_states; k++)
        if (!(t->state_names[k] = strdup(hes__csv_trim(fields[nc + k]))))
            goto nomem;
    while ((got = hes__csv_line_read(f, &l)) == 1) {
        if (l.too_long || l.has_nul) {
            snprintf(msg, len, "line %d: too long or with a NUL byte", l.number);
            goto out;
        }
        if (l.len && l.text[l.len - 1] == '\r')
            l.text[--l.len] = '\0';
        if (l.text[strspn(l.text, " \t")] == '\0')
            continue;
        if (hes__csv_split(l.text, fields, nf) != nf) {
            snprintf(msg, len, "line %d: not %d fields", l.number, nf);
            goto out;
        }
        if (grow(t))
            goto nomem;
        int n = t->n;
        double b, s;
        t->label[n] = label_of(hes__csv_trim(fields[col[3]]));
        t->verdict[n] = verdict_of(hes__csv_trim(fields[col[10]]));
        t->value2[n] = NAN;
        if (hes__csv_parse_double(hes__csv_trim(fields[col[0]]), &b) || b < 0 || b > 1e6 ||
            b != floor(b) ||
            hes__csv_parse_double(hes__csv_trim(fields[col[5]]), &t->value[n]) ||
            (col[6] >= 0 && csv_num(hes__csv_trim(fields[col[6]]), &t->value2[n])) ||
            csv_num(hes__csv_trim(fields[col[7]]), &s) ||
            csv_num(hes__csv_trim(fields[col[8]]), &t->period[n]) ||
            csv_num(hes__csv_trim(fields[col[9]]), &t->psi[n]) || t->verdict[n] < 0) {
            snprintf(msg, len, "line %d: a branch, value, value2, period, psi or verdict "
                     "malformed", l.number);
            goto out;
        }
        /* a curve's rows have a value2, a branch's none */
        t->curve[n] = !isnan(t->value2[n]);
        if (t->curve[n] && !t->want_curves)
            continue;
        if (t->label[n] < 0) {
            snprintf(msg, len, "line %d: a label that 'hes continue' does not write", l.number);
            goto out;
        }
        t->branch[n] = (int)b;
        for (int k = 0; k < t->n_states; k++)
            if (csv_num(hes__csv_trim(fields[nc + k]),
                        &t->x[(size_t)n * t->n_states + k])) {
                snprintf(msg, len, "line %d: state %d is not a number", l.number, k + 1);
                goto out;
            }
        t->n++;
    }
    if (got < 0)
        goto nomem;
    rc = CLI_EXIT_OK;
    goto out;
nomem:
    snprintf(msg, len, "out of memory or a read error");
    rc = CLI_EXIT_FAILURE;
out:
    free(fields);
    hes__csv_line_free(&l);
    return rc;
}

/* The file's branches (want_curves: and its curves): JSON when it starts
 * with '{', else CSV.  0, or the exit status after saying why. */
static int read_branches(const char *path, bif_table *t, int want_curves)
{
    char *data, msg[512];
    int rc;
    memset(t, 0, sizeof *t);
    t->want_curves = want_curves;
    FILE *f = cli_input_open(CMD, NULL, path, &data, &rc);
    if (!f)
        return rc;
    int c;
    while ((c = getc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    if (c != EOF)
        ungetc(c, f);
    rc = c == '{' ? read_json(f, t, msg, sizeof msg) : read_csv(f, t, msg, sizeof msg);
    cli_input_close(f, data);
    if (rc == CLI_EXIT_OK && t->n < 2) {
        snprintf(msg, sizeof msg, "fewer than 2 points: no branch to draw");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, CMD ": %s: %s\n", path, msg);
        bif_free(t);
    }
    return rc;
}

/* ------------------------------------------------------- bifurcation */

typedef struct {
    const bif_table *t;
    int y;                       /* -2 psi, -1 period, else the state's column */
    const char *y_name;
    int solid, dashed, labels;   /* what the data files hold */
} bif_ctx;

static double y_of(const bif_ctx *c, int i)
{
    return c->y == -2 ? c->t->psi[i] : c->y == -1 ? c->t->period[i]
                                                  : c->t->x[(size_t)i * c->t->n_states + c->y];
}

static int bif_data(gp_run *r, void *ctx)
{
    bif_ctx *c = ctx;
    const bif_table *t = c->t;
    FILE *s = gp_data(r, "solid.dat"), *d = s ? gp_data(r, "dashed.dat") : NULL,
         *l = d ? gp_data(r, "labels.dat") : NULL;
    int rc = l ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    /* each stretch between two points of a branch: solid where neither is
       unstable and one is stable */
    for (int i = 0; l && i + 1 < t->n; i++) {
        if (t->branch[i] != t->branch[i + 1])
            continue;
        int a = t->verdict[i], b = t->verdict[i + 1];
        int stable = a != 1 && b != 1 && (a == 0 || b == 0);
        FILE *g = stable ? s : d;
        *(stable ? &c->solid : &c->dashed) = 1;
        gp_number(g, t->value[i], " ");
        gp_number(g, y_of(c, i), "\n");
        gp_number(g, t->value[i + 1], " ");
        gp_number(g, y_of(c, i + 1), "\n\n");
    }
    for (int i = 0; l && i < t->n; i++)
        if (t->label[i] > 0 && t->label[i] != HES_LABEL_EP && isfinite(y_of(c, i))) {
            gp_number(l, t->value[i], " ");
            gp_number(l, y_of(c, i), " ");
            fprintf(l, "%s\n", hes_label_name((hes_label)t->label[i])); /* a word of the list */
            c->labels = 1;
        }
    if (s && (rc = gp_data_close(r, s, "solid.dat")) == CLI_EXIT_OK && d)
        rc = gp_data_close(r, d, "dashed.dat");
    else if (d)
        fclose(d);
    if (l && rc == CLI_EXIT_OK)
        rc = gp_data_close(r, l, "labels.dat");
    else if (l)
        fclose(l);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", t->param);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", c->y_name);
    return rc;
}

/* The script's constant pieces; which of them go in depends only on what
 * the data files hold and on whether y is psi. */
static const char *const bif_head =
    "set title \"branches of 'hes continue' (solid: stable; dashed: unstable or marginal)\"\n"
    "set xlabel ARGV[2]\nset ylabel ARGV[3]\nset grid\nset key outside bottom center horizontal\n"
    "set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05\n"
    "plot ";
static const char *const bif_solid =
    "d.'/solid.dat' using 1:2 with lines lw 2 lc rgb '#08519c' title 'stable'";
static const char *const bif_dashed =
    "d.'/dashed.dat' using 1:2 with lines lw 2 dt 2 lc rgb '#a50f15' title 'unstable or marginal'";
static const char *const bif_labels =
    "d.'/labels.dat' using 1:2 with points pt 7 ps 1.2 lc rgb 'black' title 'labelled points', "
    "d.'/labels.dat' using 1:2:3 with labels offset 0.8,0.8 left tc rgb 'black' notitle";
static const char *const bif_psi_one = "1 with lines dt 3 lw 1.5 lc rgb 'gray30' title 'psi = 1'";

static int bif_draw(gp_run *r, void *ctx)
{
    return bif_data(r, ctx);
}

int plot_bifurcation(const char *path, const char *y, const char *tmpdir, const char *out)
{
    bif_table t;
    int rc = read_branches(path, &t, 0);
    if (rc != CLI_EXIT_OK)
        return rc;
    bif_ctx c = { .t = &t, .y = -2, .y_name = "psi" };
    if (y && strcmp(y, "period") == 0)
        c.y = -1, c.y_name = "period";
    else if (y && strcmp(y, "psi") != 0) {
        c.y = -3;
        for (int k = 0; k < t.n_states && c.y == -3; k++)
            if (strcmp(t.state_names[k], y) == 0)
                c.y = k, c.y_name = t.state_names[k];
        if (c.y == -3) {
            fprintf(stderr, CMD " bifurcation: --y %s: not psi, period or a state of %s\n", y,
                    path);
            bif_free(&t);
            return CLI_EXIT_USAGE;
        }
    }
    gp_run r;
    char script[2048];
    rc = gp_begin(&r, tmpdir, out);
    if (rc == CLI_EXIT_OK && (rc = bif_draw(&r, &c)) == CLI_EXIT_OK) {
        /* assembled from the constants above only */
        const char *parts[4];
        int n = 0;
        if (c.solid)
            parts[n++] = bif_solid;
        if (c.dashed)
            parts[n++] = bif_dashed;
        if (c.labels)
            parts[n++] = bif_labels;
        if (c.y == -2)
            parts[n++] = bif_psi_one;
        snprintf(script, sizeof script, "%s", bif_head);
        for (int k = 0; k < n; k++) {
            if (k)
                strcat(script, ", ");
            strcat(script, parts[k]);
        }
        strcat(script, "\n");
        if (n == 0) {
            fprintf(stderr, CMD " bifurcation: %s: no stretch of a branch to draw\n", path);
            rc = CLI_EXIT_USAGE;
        } else
            rc = gp_draw(&r, script, out);
    }
    gp_end(&r);
    bif_free(&t);
    return rc;
}

/* -------------------------------------------------- branch-multipliers */

typedef struct {
    const bif_table *t;
} bm_ctx;

static int bm_data(gp_run *r, void *ctx)
{
    const bif_table *t = ((const bm_ctx *)ctx)->t;
    double big = 1;
    FILE *g = gp_data(r, "mult.dat");
    if (!g)
        return CLI_EXIT_FAILURE;
    for (int k = 0; k < t->n_mult; k++) {
        gp_number(g, t->re[k], " ");
        gp_number(g, t->im[k], " ");
        gp_number(g, t->at[k], "\n");
        if (isfinite(t->re[k]) && fabs(t->re[k]) > big)
            big = fabs(t->re[k]);
        if (isfinite(t->im[k]) && fabs(t->im[k]) > big)
            big = fabs(t->im[k]);
    }
    int rc = gp_data_close(r, g, "mult.dat");
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", t->param);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%.17g", 1.1 * big);
    return rc;
}

static const char *const bm_script =
    "r = ARGV[3] + 0\n"
    "set size ratio -1\nset title \"multipliers along the branches of 'hes continue'\"\n"
    "set xlabel 'Re'\nset ylabel 'Im'\nset cblabel ARGV[2]\n"
    "set xrange [-r:r]\nset yrange [-r:r]\nset grid\nset parametric\nset trange [0:2*pi]\n"
    "set key bottom right\nset palette rgb 33,13,10\n"
    "plot cos(t), sin(t) title 'unit circle' lw 2 lc rgb 'gray', "
    "d.'/mult.dat' using 1:2:3 with points pt 7 ps 0.9 palette title 'multipliers'\n";

int plot_branch_multipliers(const char *path, const char *tmpdir, const char *out)
{
    bif_table t;
    int rc = read_branches(path, &t, 0);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!t.have_mult || t.n_mult == 0) {
        fprintf(stderr, CMD " branch-multipliers: %s: no multipliers (they are in the JSON "
                "document of 'hes continue --json', not in its CSV)\n", path);
        bif_free(&t);
        return CLI_EXIT_USAGE;
    }
    bm_ctx c = { &t };
    rc = gp_picture(tmpdir, out, bm_data, &c, bm_script);
    bif_free(&t);
    return rc;
}

/* ------------------------------------------------------------ boundary */

typedef struct {
    const bif_table *t;
    int n_curves, marks;         /* what the data files hold */
} bd_ctx;

/* Each curve a block of curves.dat, its first line its title (the label, a
 * word of the library's list, and numbers); its label again at its last
 * point (ends.dat); the branches' labelled points at the second
 * parameter's value they were followed at, the curves' start (marks.dat). */
static int bd_data(gp_run *r, void *ctx)
{
    bd_ctx *c = ctx;
    const bif_table *t = c->t;
    double q0 = NAN;
    for (int i = 0; i < t->n && isnan(q0); i++)
        if (t->curve[i])
            q0 = t->value2[i];
    FILE *g = gp_data(r, "curves.dat"), *e = g ? gp_data(r, "ends.dat") : NULL,
         *m = e ? gp_data(r, "marks.dat") : NULL;
    int rc = m ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    for (int i = 0; m && i < t->n; i++) {
        if (!t->curve[i])
            continue;
        int first = i == 0 || !t->curve[i - 1] || t->branch[i - 1] != t->branch[i];
        int last = i + 1 == t->n || !t->curve[i + 1] || t->branch[i + 1] != t->branch[i];
        const char *label = t->label[i] > 0 ? hes_label_name((hes_label)t->label[i]) : "";
        if (first) {
            fprintf(g, "%s\"%s curve %d\"\n", c->n_curves ? "\n\n" : "", label, c->n_curves);
            c->n_curves++;
        }
        gp_number(g, t->value[i], " ");
        gp_number(g, t->value2[i], "\n");
        if (last && t->label[i] > 0) {
            gp_number(e, t->value[i], " ");
            gp_number(e, t->value2[i], " ");
            fprintf(e, "%s\n", label); /* a word of the list */
        }
    }
    for (int i = 0; m && i < t->n; i++)
        if (!t->curve[i] && t->label[i] > 0 && isfinite(q0)) {
            gp_number(m, t->value[i], " ");
            gp_number(m, q0, " ");
            fprintf(m, "%s\n", hes_label_name((hes_label)t->label[i]));
            c->marks = 1;
        }
    if (g && (rc = gp_data_close(r, g, "curves.dat")) == CLI_EXIT_OK && e)
        rc = gp_data_close(r, e, "ends.dat");
    else if (e)
        fclose(e);
    if (m && rc == CLI_EXIT_OK)
        rc = gp_data_close(r, m, "marks.dat");
    else if (m)
        fclose(m);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", t->param);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%s", t->param2);
    if (rc == CLI_EXIT_OK)
        rc = gp_arg(r, "%d", c->n_curves);
    return rc;
}

static const char *const bd_head =
    "n = ARGV[4] + 0\n"
    "set title \"bifurcation curves of 'hes continue --param2'\"\n"
    "set xlabel ARGV[2]\nset ylabel ARGV[3]\nset grid\nset key outside bottom center horizontal\n"
    "set offsets graph 0.05, graph 0.1, graph 0.05, graph 0.05\n"
    "plot for [i=0:n-1] d.'/curves.dat' index i using 1:2 with linespoints lw 2 pt 7 ps 0.4 "
    "title columnheader(1), "
    "d.'/ends.dat' using 1:2:3 with labels offset 0.8,0 left tc rgb 'black' notitle";
static const char *const bd_marks =
    ", d.'/marks.dat' using 1:2 with points pt 6 ps 1.5 lw 1.5 lc rgb 'black' "
    "title 'labelled points of the branches', "
    "d.'/marks.dat' using 1:2:3 with labels offset 0.8,-0.8 left tc rgb 'gray30' notitle";

int plot_boundary(const char *path, const char *tmpdir, const char *out)
{
    bif_table t;
    int rc = read_branches(path, &t, 1), any = 0;
    if (rc != CLI_EXIT_OK)
        return rc;
    for (int i = 0; i < t.n; i++)
        any |= t.curve[i];
    if (!any) {
        fprintf(stderr, CMD " boundary: %s: no curve (they are in the output of 'hes continue "
                "--param2 NAME2=TO2')\n", path);
        bif_free(&t);
        return CLI_EXIT_USAGE;
    }
    bd_ctx c = { .t = &t };
    gp_run r;
    char script[1024];
    rc = gp_begin(&r, tmpdir, out);
    if (rc == CLI_EXIT_OK && (rc = bd_data(&r, &c)) == CLI_EXIT_OK) {
        /* assembled from the constants above only */
        snprintf(script, sizeof script, "%s%s\n", bd_head, c.marks ? bd_marks : "");
        rc = gp_draw(&r, script, out);
    }
    gp_end(&r);
    bif_free(&t);
    return rc;
}
