/*
 * base/names.c - a name given twice in a table of names (state names,
 * event names): sorted pointers, so that a table of 10000 names costs
 * n log n comparisons rather than n^2.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int hes__duplicate_name(const char *const *names, int n, const char **dup)
{
    *dup = NULL;
    if (!names || n < 2)
        return 0;
    const char **s = malloc(sizeof *s * (size_t)n);
    if (!s)
        return -1;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (names[i])
            s[m++] = names[i];
    qsort(s, (size_t)m, sizeof *s, by_text);
    for (int i = 1; i < m && !*dup; i++)
        if (strcmp(s[i - 1], s[i]) == 0)
            *dup = s[i];
    free(s);
    /* *dup points into the caller's table */
    for (int i = 0; *dup && i < n; i++)
        if (names[i] && strcmp(names[i], *dup) == 0) {
            *dup = names[i];
            break;
        }
    return *dup ? 1 : 0;
}
