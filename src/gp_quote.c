/*
 * gp_quote.c - gnuplot string constants for any byte string (gp_quote.h).
 *
 * The constant is "..." in double quotes, holding each byte of a small set
 * of plain characters (letters, digits, the blank and _ . , : + - ( ) / =
 * [ ] < > *) as itself and every other byte as the octal escape \ooo (three
 * digits), which gnuplot turns back into that byte in a double-quoted
 * string.  Why nothing in s can act as gnuplot syntax: the script line then
 * holds, between the two quotes, no double quote (where the string would
 * end), no backslash but those starting an escape, no backquote (command
 * substitution, which gnuplot performs inside double quotes), no '@'
 * (macro expansion), no '#' (a comment), no ';' (a second command), no
 * newline or other control byte, and no single quote; those are all
 * written as escapes.  An escape is never followed by a digit written as
 * itself (a digit right after an escape is escaped too), so no digit of s
 * is read as part of one (gnuplot reads up to four digits after "\0").  tests/test_gp_quote.c reads
 * every byte and the injection strings back through the real gnuplot.
 */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gp_quote.h"

static int plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr(" _.,:+-()/=[]<>*", c) != NULL);
}

void gp_quote(FILE *g, const char *s)
{
    int escaped = 0; /* the last byte written was an escape */
    fputc('"', g);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        escaped = !plain(*p) || (escaped && *p >= '0' && *p <= '9');
        if (escaped)
            fprintf(g, "\\%03o", *p);
        else
            fputc(*p, g);
    }
    fputc('"', g);
}

void gp_quotef(FILE *g, const char *fmt, ...)
{
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    gp_quote(g, n >= 0 && text ? text : "?");
    if (n >= 0)
        free(text);
}
