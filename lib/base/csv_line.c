/*
 * csv_line.c - strict line and field reading for the CSV readers of the hes
 * program (see csv_line.h): bounded lines (CSV_LINE_MAX), with the byte
 * offsets a reader needs to rewrite a file in place, NUL bytes and overlong
 * lines flagged instead of silently cut, fields split at commas, and numbers
 * parsed strictly.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv_line.h"

void hes__csv_line_init(csv_line *l)
{
    memset(l, 0, sizeof *l);
}

void hes__csv_line_free(csv_line *l)
{
    free(l->text);
    memset(l, 0, sizeof *l);
}

int hes__csv_line_read(FILE *f, csv_line *l)
{
    int c;
    size_t kept = 0, total = 0;
    if (!l->text) {
        l->cap = 256;
        if (!(l->text = malloc(l->cap)))
            return -1;
    }
    l->start = l->next;
    l->newline = l->too_long = l->has_nul = 0;
    while ((c = getc(f)) != EOF) {
        total++;
        if (c == '\n') {
            l->newline = 1;
            break;
        }
        if (c == '\0')
            l->has_nul = 1;
        if (kept >= CSV_LINE_MAX) {
            l->too_long = 1; /* keep reading to its end, keep nothing more */
            continue;
        }
        if (kept + 1 >= l->cap) {
            size_t cap = 2 * l->cap;
            char *t = realloc(l->text, cap);
            if (!t)
                return -1;
            l->text = t;
            l->cap = cap;
        }
        l->text[kept++] = (char)c;
    }
    if (ferror(f))
        return -1;
    if (total == 0)
        return 0;
    l->text[kept] = '\0';
    l->len = kept;
    l->next = l->start + (long long)total;
    l->number++;
    return 1;
}

int hes__csv_split(char *text, char **fields, int max)
{
    int n = 0;
    char *s = text;
    for (;;) {
        char *comma = strchr(s, ',');
        if (n == max)
            return max + 1;
        fields[n++] = s;
        if (!comma)
            return n;
        *comma = '\0';
        s = comma + 1;
    }
}

char *hes__csv_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

int hes__csv_parse_double(const char *s, double *v)
{
    char *end;
    if (!s[0] || strspn(s, "0123456789+-.eE") != strlen(s))
        return -1;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(x))
        return -1;
    *v = x;
    return 0;
}

int hes__csv_message(int code, char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return code;
}
