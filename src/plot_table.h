/*
 * plot_table.h - the readers of the tables `hes plot` draws (cmd_plot.c):
 * a sweep over two parameters (stability-map), the benchmark table of
 * bench_ess_mujoco (ess-bench) and the table of `hes invdyn --csv`
 * (contact-forces).  Each reads the whole stream into memory-owned arrays
 * of any size, or refuses it with the reason in msg; nothing is printed.
 * Only the C library and csv_line.c: the fuzz target
 * tests/fuzz/fuzz_plot_table.c compiles them on their own.
 */
#ifndef HES_PLOT_TABLE_H
#define HES_PLOT_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum {
    PLOT_TABLE_OK = 0,
    PLOT_TABLE_FAILED = 1,   /* a read error or out of memory (errno-like reason in msg) */
    PLOT_TABLE_REFUSED = 2   /* not a table of that kind (the reason in msg) */
};

/* `hes sweep --grid A --grid B`: '#' lines, the header index,A,B,status,
 * psi,..., one row per point.  Read: the points sorted by index (each of
 * 0 to n - 1 once), the second parameter varying fastest along scan lines
 * of nb points. */
typedef struct {
    char *names[2];          /* A and B */
    int n, nb;               /* points (at least 2 x 2), points per scan line */
    double *a, *b, *psi;     /* n each; psi NaN where the point failed */
} plot_map;

int plot_map_read(FILE *f, plot_map *m, char *msg, size_t len);
void plot_map_free(plot_map *m);

/* bench_ess_mujoco's table: '#' lines, the header N,hes_s,mujoco_s,...
 * (eq_hes_s optional), one row per N with N >= 1 and positive finite
 * times; at least 2 rows. */
typedef struct {
    int n;
    double *N, *hes_s, *mujoco_s, *eq_hes_s;  /* n each; eq_hes_s NaN where not measured */
} plot_bench;

int plot_bench_read(FILE *f, plot_bench *b, char *msg, size_t len);
void plot_bench_free(plot_bench *b);

/* `hes invdyn --csv`: the header t,method,status,... with the columns
 * fn:C, ratio:C and stance:C of each contact C (each name once) and
 * mu_min, then rows of as many fields; at least 2 rows. */
typedef struct {
    int n_contacts, rows;
    char **names;            /* n_contacts, in the order of their fn: columns */
    double *t;               /* rows */
    double *fn, *ratio;      /* rows x n_contacts, row-major; ratio NaN where not in stance */
    double *mu_min;          /* rows; NaN where absent or negative */
} plot_forces;

int plot_forces_read(FILE *f, plot_forces *p, char *msg, size_t len);
void plot_forces_free(plot_forces *p);

#endif /* HES_PLOT_TABLE_H */
