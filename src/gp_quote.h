/*
 * gp_quote.h - the one way text reaches a gnuplot script written by
 * `hes plot`: as a gnuplot string constant that gnuplot reads back as
 * exactly the bytes given, whatever they are (names from data files,
 * models, robot descriptions; file paths).  Only the C library: the tests
 * compile it on its own.
 */
#ifndef HES_GP_QUOTE_H
#define HES_GP_QUOTE_H

#include <stdio.h>

/* Writes s to g as one double-quoted gnuplot string constant. */
void gp_quote(FILE *g, const char *s);

/* The printf-style text, written with gp_quote (when it cannot be
 * formatted, out of memory: the constant "?"). */
void gp_quotef(FILE *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* HES_GP_QUOTE_H */
