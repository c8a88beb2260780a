/*
 * point_list.c - the strict reader of `hes sweep --list FILE.csv` (see
 * point_list.h): a header of distinct parameter names, then one row of
 * finite numbers per point, every problem refused with its line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/csv_line.h"
#include "point_list.h"

/* The line's text ready to split: a DOS line end dropped; NULL after
 * setting msg when the line is unusable. */
static char *line_text(csv_line *l, char *msg, size_t len)
{
    if (l->too_long) {
        hes__csv_message(0, msg, len, "line %d is longer than %d bytes", l->number, CSV_LINE_MAX);
        return NULL;
    }
    if (l->has_nul) {
        hes__csv_message(0, msg, len, "line %d contains a NUL byte (not a text file?)", l->number);
        return NULL;
    }
    if (l->len > 0 && l->text[l->len - 1] == '\r')
        l->text[--l->len] = '\0';
    return l->text;
}

static int is_blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

static int read_header(FILE *f, csv_line *l, point_list *pl, char *msg, size_t len)
{
    char *fields[POINT_LIST_MAX_NAMES + 1], *text = NULL;
    int rc;
    while ((rc = hes__csv_line_read(f, l)) == 1) { /* the first line that is not blank */
        if (!(text = line_text(l, msg, len)))
            return POINT_LIST_BAD;
        if (!is_blank(text))
            break;
    }
    if (rc < 0)
        return hes__csv_message(POINT_LIST_IO, msg, len, "%s", strerror(errno));
    if (rc == 0)
        return hes__csv_message(POINT_LIST_BAD, msg, len, "empty file (expected a header of parameter names, "
                   "then one row of numbers per point)");
    int n = hes__csv_split(text, fields, POINT_LIST_MAX_NAMES);
    if (n > POINT_LIST_MAX_NAMES)
        return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d: more than %d columns", l->number,
                   POINT_LIST_MAX_NAMES);
    for (int j = 0; j < n; j++) {
        char *name = hes__csv_trim(fields[j]);
        if (!*name)
            return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d (the header): column %d has no name",
                       l->number, j + 1);
        if (strlen(name) >= POINT_LIST_NAME_MAX)
            return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d (the header): the name of column %d is "
                       "longer than %d bytes", l->number, j + 1, POINT_LIST_NAME_MAX - 1);
        for (int k = 0; k < j; k++)
            if (strcmp(pl->names[k], name) == 0)
                return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d (the header): column '%s' appears "
                           "twice", l->number, name);
        strcpy(pl->names[j], name);
    }
    pl->n_names = n;
    return POINT_LIST_OK;
}

static int read_points(FILE *f, csv_line *l, point_list *pl, char *msg, size_t len)
{
    char *fields[POINT_LIST_MAX_NAMES + 1], *text;
    size_t cap = 0;
    int rc, n = pl->n_names;
    while ((rc = hes__csv_line_read(f, l)) == 1) {
        if (!(text = line_text(l, msg, len)))
            return POINT_LIST_BAD;
        if (is_blank(text))
            continue;
        int k = hes__csv_split(text, fields, n);
        if (k != n)
            return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d: %s%d fields, the header has %d", l->number,
                       k > n ? "more than " : "", k > n ? n : k, n);
        if (pl->n_points >= POINT_LIST_MAX_POINTS)
            return hes__csv_message(POINT_LIST_BAD, msg, len, "more than %d points", POINT_LIST_MAX_POINTS);
        if ((size_t)pl->n_points >= cap) {
            cap = cap ? 2 * cap : 64;
            double *v = realloc(pl->values, sizeof(double) * cap * (size_t)n);
            if (!v)
                return hes__csv_message(POINT_LIST_IO, msg, len, "out of memory");
            pl->values = v;
        }
        for (int j = 0; j < n; j++) {
            char *s = hes__csv_trim(fields[j]);
            if (!*s)
                return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d: field %d (%s) is empty", l->number,
                           j + 1, pl->names[j]);
            if (hes__csv_parse_double(s, &pl->values[(size_t)pl->n_points * n + j]))
                return hes__csv_message(POINT_LIST_BAD, msg, len, "line %d: field %d (%s): '%.40s' is not a "
                           "finite number", l->number, j + 1, pl->names[j], s);
        }
        pl->n_points++;
    }
    if (rc < 0)
        return hes__csv_message(POINT_LIST_IO, msg, len, "%s", strerror(errno));
    if (pl->n_points == 0)
        return hes__csv_message(POINT_LIST_BAD, msg, len, "no points (a header and no rows of numbers)");
    return POINT_LIST_OK;
}

int point_list_read(FILE *f, point_list *pl, char *msg, size_t len)
{
    csv_line l;
    memset(pl, 0, sizeof *pl);
    hes__csv_line_init(&l);
    int rc = read_header(f, &l, pl, msg, len);
    if (rc == POINT_LIST_OK)
        rc = read_points(f, &l, pl, msg, len);
    hes__csv_line_free(&l);
    if (rc != POINT_LIST_OK)
        point_list_free(pl);
    return rc;
}

void point_list_free(point_list *pl)
{
    free(pl->values);
    memset(pl, 0, sizeof *pl);
}
