/*
 * plot_table.c - the readers of the tables `hes plot` draws (plot_table.h).
 * Lines come through hes__csv_line_read (bounded, NUL bytes and overlong lines
 * refused, a DOS line end dropped), fields through csv_split into arrays as long as the line needs,
 * numbers through csv_parse_double; every array grows with the table
 * (doubling), so
 * no row count, column count or contact count has a fixed limit.  Names
 * are kept as read: they are drawn as text, given to gnuplot as data (gnuplot_run.c).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv_line.h"
#include "plot_table.h"

/* Fields of a line: split in place into a growing array. */
typedef struct {
    char **field;
    int cap;
} fields;

/* Splits text into fl; returns the count, or -1 out of memory. */
static int split(char *text, fields *fl)
{
    int need = 1;
    for (const char *c = text; *c; c++)
        need += *c == ',';
    if (need > fl->cap) {
        char **f = realloc(fl->field, sizeof *f * (size_t)need);
        if (!f)
            return -1;
        fl->field = f;
        fl->cap = need;
    }
    return hes__csv_split(text, fl->field, need);
}

/* hes__csv_line_read, with a DOS line end dropped. */
static int next_line(FILE *f, csv_line *l)
{
    int got = hes__csv_line_read(f, l);
    if (got == 1 && !l->too_long && !l->has_nul && l->len > 0 && l->text[l->len - 1] == '\r')
        l->text[--l->len] = '\0';
    return got;
}

static int blank(const char *s)
{
    return s[strspn(s, " \t\r")] == '\0';
}

/* The next capacity for n elements after cap (doubling from 64); 0 when
 * it would pass what an int counts. */
static int next_cap(int cap, int n)
{
    int c = cap ? cap : 64;
    while (c < n) {
        if (c > INT_MAX / 2)
            return 0;
        c *= 2;
    }
    return c;
}

/* *p resized to n doubles; 0, or -1 out of memory (*p unchanged). */
static int resize(double **p, size_t n)
{
    double *q = realloc(*p, sizeof *q * n);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

static int read_error(char *msg, size_t len)
{
    return hes__csv_message(PLOT_TABLE_FAILED, msg, len, "%s", strerror(errno ? errno : EIO));
}

static int no_memory(char *msg, size_t len)
{
    return hes__csv_message(PLOT_TABLE_FAILED, msg, len, "out of memory");
}

/* A strict non-negative decimal integer (a sweep's index). */
static int parse_index(const char *s, int *v)
{
    if (!s[0] || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return -1;
    *v = atoi(s);
    return 0;
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

void plot_map_free(plot_map *m)
{
    free(m->names[0]);
    free(m->names[1]);
    free(m->a);
    free(m->b);
    free(m->psi);
    memset(m, 0, sizeof *m);
}

/* The rows of a sweep after its header into *pts (n of them); 0 or a
 * PLOT_TABLE_ code with msg. */
static int map_rows(FILE *f, csv_line *l, fields *fl, map_point **pts, int *n, char *msg,
                    size_t len)
{
    int got, cap = 0;
    while ((got = next_line(f, l)) == 1) {
        if (l->too_long || l->has_nul)
            return hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is not a row of a sweep "
                               "(%s)", l->number, l->too_long ? "too long" : "a NUL byte");
        if (blank(l->text))
            continue;
        int nf = split(l->text, fl);
        if (nf < 0)
            return no_memory(msg, len);
        map_point p = { 0, 0, 0, 0, NAN };
        if (nf < 4 || parse_index(fl->field[0], &p.index) || hes__csv_parse_double(fl->field[1], &p.a) ||
            hes__csv_parse_double(fl->field[2], &p.b))
            return hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is not a row of a sweep "
                               "over two parameters (index,A,B,status,psi,... with an index "
                               ">= 0 and finite A and B)", l->number);
        p.ok = strcmp(fl->field[3], "ok") == 0 && nf >= 5 && hes__csv_parse_double(fl->field[4],
                                                                             &p.psi) == 0;
        if (!p.ok)
            p.psi = NAN;
        if (*n == cap) {
            map_point *q = (cap = next_cap(cap, *n + 1)) ? realloc(*pts, sizeof *q * (size_t)cap)
                                                         : NULL;
            if (!q)
                return no_memory(msg, len);
            *pts = q;
        }
        (*pts)[(*n)++] = p;
    }
    return got < 0 ? read_error(msg, len) : PLOT_TABLE_OK;
}

int plot_map_read(FILE *f, plot_map *m, char *msg, size_t len)
{
    csv_line l;
    fields fl = { NULL, 0 };
    map_point *pts = NULL;
    int got, n = 0, rc = PLOT_TABLE_OK;
    memset(m, 0, sizeof *m);
    hes__csv_line_init(&l);
    while ((got = next_line(f, &l)) == 1 && l.text[0] == '#' && !l.too_long)
        ; /* the '#' lines of a sweep file */
    int nf = got == 1 && !l.too_long && !l.has_nul ? split(l.text, &fl) : 0;
    if (got < 0)
        rc = read_error(msg, len);
    else if (nf < 0)
        rc = no_memory(msg, len);
    else if (nf < 5 || strcmp(fl.field[0], "index") != 0 || strcmp(fl.field[3], "status") != 0 ||
             strcmp(fl.field[4], "psi") != 0 || !fl.field[1][0] || !fl.field[2][0])
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "not a sweep over two parameters "
                         "(expected a header index,A,B,status,psi,...)");
    else if (!(m->names[0] = strdup(fl.field[1])) || !(m->names[1] = strdup(fl.field[2])))
        rc = no_memory(msg, len);
    if (rc == PLOT_TABLE_OK)
        rc = map_rows(f, &l, &fl, &pts, &n, msg, len);
    hes__csv_line_free(&l);
    free(fl.field);
    int n_ok = 0;
    for (int i = 0; rc == PLOT_TABLE_OK && i < n; i++)
        n_ok += pts[i].ok;
    if (rc == PLOT_TABLE_OK && n < 4)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%d point%s; a map needs a grid of at "
                         "least 2 x 2", n, n == 1 ? "" : "s");
    else if (rc == PLOT_TABLE_OK && n_ok == 0)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "no successful points to plot (every "
                         "point of the sweep failed; see its status and message columns)");
    if (rc == PLOT_TABLE_OK) {
        qsort(pts, (size_t)n, sizeof *pts, cmp_index);
        for (int i = 0; i < n; i++)
            if (pts[i].index != i) {
                int twice = pts[i].index < i;
                rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "point %d %s (a complete sweep "
                                 "has the indices 0 to %d once each)", twice ? pts[i].index : i,
                                 twice ? "appears twice" : "is missing", n - 1);
                break;
            }
    }
    int nb = 1; /* points per scan line: the second parameter varies fastest */
    while (rc == PLOT_TABLE_OK && nb < n && pts[nb].a == pts[0].a)
        nb++;
    if (rc == PLOT_TABLE_OK && (n % nb != 0 || nb < 2 || n / nb < 2))
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "not a complete grid (--grid A --grid "
                         "B, every point)");
    if (rc == PLOT_TABLE_OK && (!(m->a = malloc(sizeof(double) * (size_t)n)) ||
                                !(m->b = malloc(sizeof(double) * (size_t)n)) ||
                                !(m->psi = malloc(sizeof(double) * (size_t)n))))
        rc = no_memory(msg, len);
    if (rc != PLOT_TABLE_OK) {
        free(pts);
        plot_map_free(m);
        return rc;
    }
    for (int i = 0; i < n; i++) {
        m->a[i] = pts[i].a;
        m->b[i] = pts[i].b;
        m->psi[i] = pts[i].psi;
    }
    m->n = n;
    m->nb = nb;
    free(pts);
    return PLOT_TABLE_OK;
}

/* ------------------------------------------------------------- ess-bench */

void plot_bench_free(plot_bench *b)
{
    free(b->N);
    free(b->hes_s);
    free(b->mujoco_s);
    free(b->eq_hes_s);
    memset(b, 0, sizeof *b);
}

int plot_bench_read(FILE *f, plot_bench *b, char *msg, size_t len)
{
    csv_line l;
    fields fl = { NULL, 0 };
    int got, header = 0, rc = PLOT_TABLE_OK, eq_col = -1, cap = 0;
    memset(b, 0, sizeof *b);
    hes__csv_line_init(&l);
    while (rc == PLOT_TABLE_OK && (got = next_line(f, &l)) == 1) {
        if (l.too_long || l.has_nul) {
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is %s", l.number,
                             l.too_long ? "too long" : "not text (a NUL byte)");
            break;
        }
        if (l.text[0] == '#' || blank(l.text))
            continue;
        int nf = split(l.text, &fl);
        if (nf < 0) {
            rc = no_memory(msg, len);
            break;
        }
        if (!header) {
            if (nf < 3 || strcmp(fl.field[0], "N") != 0 || strcmp(fl.field[1], "hes_s") != 0 ||
                strcmp(fl.field[2], "mujoco_s") != 0) {
                rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "not a table of "
                                 "bench_ess_mujoco (expected a header N,hes_s,mujoco_s,...)");
                break;
            }
            for (int k = 3; k < nf && eq_col < 0; k++)
                if (strcmp(fl.field[k], "eq_hes_s") == 0)
                    eq_col = k; /* optional */
            header = 1;
            continue;
        }
        double N, th, tm, te = NAN;
        if (nf < 3 || hes__csv_parse_double(fl.field[0], &N) || hes__csv_parse_double(fl.field[1], &th) ||
            hes__csv_parse_double(fl.field[2], &tm) || !(N >= 1) || !(th > 0) || !(tm > 0)) {
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is not a row N,hes_s,"
                             "mujoco_s,... with N >= 1 and positive finite times", l.number);
            break;
        }
        if (eq_col > 0 && eq_col < nf && hes__csv_parse_double(fl.field[eq_col], &te))
            te = NAN; /* "nan": not measured */
        if (b->n == cap && (!(cap = next_cap(cap, b->n + 1)) || resize(&b->N, (size_t)cap) ||
                            resize(&b->hes_s, (size_t)cap) || resize(&b->mujoco_s, (size_t)cap) ||
                            resize(&b->eq_hes_s, (size_t)cap))) {
            rc = no_memory(msg, len);
            break;
        }
        b->N[b->n] = N;
        b->hes_s[b->n] = th;
        b->mujoco_s[b->n] = tm;
        b->eq_hes_s[b->n] = te > 0 ? te : NAN;
        b->n++;
    }
    if (rc == PLOT_TABLE_OK && got < 0)
        rc = read_error(msg, len);
    if (rc == PLOT_TABLE_OK && !header)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "not a table of bench_ess_mujoco "
                         "(expected a header N,hes_s,mujoco_s,...)");
    if (rc == PLOT_TABLE_OK && b->n < 2)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%d row%s; the slopes need at least 2",
                         b->n, b->n == 1 ? "" : "s");
    hes__csv_line_free(&l);
    free(fl.field);
    if (rc != PLOT_TABLE_OK)
        plot_bench_free(b);
    return rc;
}

/* -------------------------------------------------------- contact-forces */

void plot_forces_free(plot_forces *p)
{
    for (int c = 0; p->names && c < p->n_contacts; c++)
        free(p->names[c]);
    free(p->names);
    free(p->t);
    free(p->fn);
    free(p->ratio);
    free(p->mu_min);
    memset(p, 0, sizeof *p);
}

/* A contact's columns, found by its name (in the header line: valid only
 * while that line is). */
typedef struct {
    const char *name;
    int fn, ratio, stance;
} contact_cols;

static int cmp_name(const void *x, const void *y)
{
    return strcmp(((const contact_cols *)x)->name, ((const contact_cols *)y)->name);
}

/* The header's columns: the contacts' (in fn: order in *cols, n of them)
 * and mu_min's; 0 or a PLOT_TABLE_ code with msg. */
static int forces_header(char **field, int nf, contact_cols **cols, int *n, int *mu_col,
                         char *msg, size_t len)
{
    static const char expected[] = "not a table of 'hes invdyn --csv' (expected a header "
                                   "t,method,status,... with fn:, ratio:, stance: columns and "
                                   "mu_min)";
    if (nf < 4 || strcmp(field[0], "t") != 0 || strcmp(field[1], "method") != 0 ||
        strcmp(field[2], "status") != 0)
        return hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%s", expected);
    contact_cols *c = malloc(sizeof *c * (size_t)nf), *sorted = malloc(sizeof *c * (size_t)nf);
    int k, m = 0;
    if (!c || !sorted) {
        free(c);
        free(sorted);
        return no_memory(msg, len);
    }
    *mu_col = -1;
    for (k = 0; k < nf; k++) {
        if (strncmp(field[k], "fn:", 3) == 0)
            c[m++] = (contact_cols){ field[k] + 3, k, -1, -1 };
        if (strcmp(field[k], "mu_min") == 0 && *mu_col < 0)
            *mu_col = k;
    }
    memcpy(sorted, c, sizeof *c * (size_t)m);
    qsort(sorted, (size_t)m, sizeof *sorted, cmp_name);
    int rc = PLOT_TABLE_OK;
    for (k = 1; k < m && rc == PLOT_TABLE_OK; k++)
        if (strcmp(sorted[k - 1].name, sorted[k].name) == 0)
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "the column fn:%s appears twice",
                             sorted[k].name);
    /* each ratio: and stance: column to its contact (by binary search) */
    for (k = 0; k < nf && rc == PLOT_TABLE_OK; k++) {
        int is_ratio = strncmp(field[k], "ratio:", 6) == 0;
        if (!is_ratio && strncmp(field[k], "stance:", 7) != 0)
            continue;
        contact_cols key = { field[k] + (is_ratio ? 6 : 7), 0, 0, 0 };
        contact_cols *hit = m ? bsearch(&key, sorted, (size_t)m, sizeof *sorted, cmp_name) : NULL;
        if (hit && (is_ratio ? hit->ratio : hit->stance) < 0)
            *(is_ratio ? &hit->ratio : &hit->stance) = k;
    }
    for (k = 0; k < m && rc == PLOT_TABLE_OK; k++)
        if (sorted[k].ratio < 0 || sorted[k].stance < 0)
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%s: the contact '%s' has no %s "
                             "column", expected, sorted[k].name,
                             sorted[k].ratio < 0 ? "ratio:" : "stance:");
    if (rc == PLOT_TABLE_OK && (m == 0 || *mu_col < 0))
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%s", expected);
    /* back into the order of the fn: columns */
    for (k = 0; k < m && rc == PLOT_TABLE_OK; k++) {
        contact_cols *hit = bsearch(&c[k], sorted, (size_t)m, sizeof *sorted, cmp_name);
        c[k] = *hit;
    }
    free(sorted);
    if (rc != PLOT_TABLE_OK) {
        free(c);
        return rc;
    }
    *cols = c;
    *n = m;
    return PLOT_TABLE_OK;
}

int plot_forces_read(FILE *f, plot_forces *p, char *msg, size_t len)
{
    csv_line l;
    fields fl = { NULL, 0 };
    contact_cols *cols = NULL;
    int got, nf = 0, nc = 0, mu_col = -1, rc = PLOT_TABLE_OK, cap = 0;
    memset(p, 0, sizeof *p);
    hes__csv_line_init(&l);
    while (rc == PLOT_TABLE_OK && (got = next_line(f, &l)) == 1) {
        if (l.too_long || l.has_nul) {
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is %s", l.number,
                             l.too_long ? "too long" : "not text (a NUL byte)");
            break;
        }
        int n = split(l.text, &fl);
        if (n < 0) {
            rc = no_memory(msg, len);
            break;
        }
        if (!cols) {
            nf = n;
            rc = forces_header(fl.field, n, &cols, &nc, &mu_col, msg, len);
            if (rc != PLOT_TABLE_OK)
                break;
            p->names = calloc((size_t)nc, sizeof *p->names);
            for (int c = 0; p->names && c < nc; c++)
                if (!(p->names[c] = strdup(cols[c].name)))
                    break;
            p->n_contacts = nc;
            if (!p->names || !p->names[nc - 1])
                rc = no_memory(msg, len);
            continue;
        }
        double t, mu;
        if (n != nf || hes__csv_parse_double(fl.field[0], &t)) {
            rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d is not a row of the "
                             "header's %d fields", l.number, nf);
            break;
        }
        int r = p->rows;
        if (r == cap && (!(cap = next_cap(cap, r + 1)) || resize(&p->t, (size_t)cap) ||
                         resize(&p->mu_min, (size_t)cap) ||
                         resize(&p->fn, (size_t)cap * (size_t)nc) ||
                         resize(&p->ratio, (size_t)cap * (size_t)nc))) {
            rc = no_memory(msg, len);
            break;
        }
        for (int c = 0; c < nc; c++) {
            double fnv, ra, st;
            if (hes__csv_parse_double(fl.field[cols[c].fn], &fnv) ||
                hes__csv_parse_double(fl.field[cols[c].ratio], &ra) ||
                hes__csv_parse_double(fl.field[cols[c].stance], &st)) {
                rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "line %d: a field of the "
                                 "contact '%s' is not a number", l.number, p->names[c]);
                break;
            }
            p->fn[(size_t)r * nc + c] = fnv;
            p->ratio[(size_t)r * nc + c] = st != 0 ? ra : NAN;
        }
        if (rc != PLOT_TABLE_OK)
            break;
        p->t[r] = t;
        p->mu_min[r] = !hes__csv_parse_double(fl.field[mu_col], &mu) && mu >= 0 ? mu : NAN;
        p->rows = r + 1;
    }
    if (rc == PLOT_TABLE_OK && got < 0)
        rc = read_error(msg, len);
    if (rc == PLOT_TABLE_OK && !cols)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "not a table of 'hes invdyn --csv' "
                         "(expected a header t,method,status,... with fn:, ratio:, stance: "
                         "columns and mu_min)");
    if (rc == PLOT_TABLE_OK && p->rows < 2)
        rc = hes__csv_message(PLOT_TABLE_REFUSED, msg, len, "%d row%s; a plot needs at least 2",
                         p->rows, p->rows == 1 ? "" : "s");
    hes__csv_line_free(&l);
    free(fl.field);
    free(cols);
    if (rc != PLOT_TABLE_OK)
        plot_forces_free(p);
    return rc;
}
