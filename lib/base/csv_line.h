/*
 * csv_line.h - the strict line and field reading shared by the readers of
 * CSV files, in the library (batch/sweep_file.c: a resumed sweep's file)
 * and in the program, which compiles this file in too since the library
 * exports only its public interface (point_list.c: `hes sweep --list`,
 * plot_table.c: `hes plot`, cmd_invdyn.c: a trajectory):
 * lines of at most CSV_LINE_MAX bytes read without a fixed buffer and
 * without ever holding more than that in memory (a longer line is reported,
 * not split), comma-separated fields split in place, and numbers parsed
 * strictly.  Only the C library: the fuzz targets under tests/fuzz/ compile
 * it on its own.
 */
#ifndef HES_CSV_LINE_H
#define HES_CSV_LINE_H

#include <stdio.h>

/* The longest line any reader accepts, in bytes, without its newline. */
#define CSV_LINE_MAX 65536

typedef struct {
    char *text;                  /* the line, NUL-terminated, without its newline */
    size_t len;                  /* strlen(text) unless has_nul */
    size_t cap;
    long long start;             /* byte offset of the line in the stream */
    long long next;              /* byte offset just past the line (and its newline) */
    int newline;                 /* it ended with '\n' (0: the stream ended first) */
    int too_long;                /* longer than CSV_LINE_MAX: text holds only its start */
    int has_nul;                 /* it contains a NUL byte */
    int number;                  /* 1 for the first line */
} csv_line;

void hes__csv_line_init(csv_line *l);
void hes__csv_line_free(csv_line *l);

/* Reads the next line of f into l.  Returns 1 (a line, possibly empty,
 * possibly without newline at the end of the stream), 0 at the end of the
 * stream, -1 on a read error or out of memory (errno says which). */
int hes__csv_line_read(FILE *f, csv_line *l);

/* Splits text in place at its commas into at most max fields (pointers
 * into text).  Returns the number of fields, or max + 1 when there are more
 * (fields then holds the first max). */
int hes__csv_split(char *text, char **fields, int max);

/* Strips blanks (spaces and tabs) at both ends, in place; returns s. */
char *hes__csv_trim(char *s);

/* Strict number: the whole of s is a finite decimal number (strtod syntax,
 * no blanks, no hexadecimal, no nan or inf).  Returns 0, or -1. */
int hes__csv_parse_double(const char *s, double *v);

/* Writes the printf-style message into msg (len bytes) and returns code: the
 * readers' way of failing with a reason. */
int hes__csv_message(int code, char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* HES_CSV_LINE_H */
