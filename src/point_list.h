/*
 * point_list.h - the points file of `hes sweep --list FILE.csv`: a header of
 * parameter names, then one row of numbers per point.  The reader is strict
 * (every problem is refused with the file name, the line and what is wrong):
 * no empty field, no repeated name, the same number of fields on every row,
 * finite decimal numbers only, lines of at most CSV_LINE_MAX bytes, at least
 * one point.  Blanks around a field and blank lines are allowed; a trailing
 * carriage return (a DOS line end) is ignored.  Only the C library: the fuzz
 * target tests/fuzz/fuzz_csv.c compiles it on its own.
 */
#ifndef HES_POINT_LIST_H
#define HES_POINT_LIST_H

#include <stdio.h>

#define POINT_LIST_MAX_NAMES 16      /* columns */
#define POINT_LIST_NAME_MAX 64       /* bytes of a name, with its NUL */
#define POINT_LIST_MAX_POINTS 10000000

typedef struct {
    int n_names;
    char names[POINT_LIST_MAX_NAMES][POINT_LIST_NAME_MAX];
    int n_points;
    double *values;                  /* n_points x n_names, point after point */
} point_list;

/* Results of the readers. */
enum { POINT_LIST_OK = 0, POINT_LIST_BAD = -1, POINT_LIST_IO = -2 };

/* Reads the list from f.  Returns POINT_LIST_OK, POINT_LIST_BAD (the
 * content is wrong) or POINT_LIST_IO (a read error or out of memory), the
 * last two with msg saying why ("line 3: field 2 (K) is empty"; the caller
 * adds the file name).  On failure pl holds nothing to free. */
int point_list_read(FILE *f, point_list *pl, char *msg, size_t len);

void point_list_free(point_list *pl);

#endif /* HES_POINT_LIST_H */
