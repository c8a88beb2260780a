/*
 * fuzz_plot_table.c - libFuzzer target of the table readers of `hes plot`
 * (src/plot_table.c: a sweep for stability-map, bench_ess_mujoco's table for
 * ess-bench, `hes invdyn --csv` for contact-forces).  Each input is read by all three
 * readers.  Besides the sanitizers it checks what they promise: a refused
 * table says why; a map is a complete grid of at least 2 x 2 points with
 * finite parameters, psi finite or NaN and at least one finite; a bench
 * table has at least 2 rows of N >= 1 and positive finite times; a forces
 * table has at least 2 rows, at least one contact, distinct names and
 * finite times and forces; and every name is one line (no newline: gnuplot
 * gets names as data, a data file's column header or a script argument,
 * never as code).  lib/base/csv_line.c and src/plot_table.c are compiled
 * into the target.  Built by `make fuzz`; seeds in tests/fuzz/corpus_plot.
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_plot_table: broken promise: %s\n", what);
        abort();
    }
}

/* a name is one line of text */
static void one_line(const char *name)
{
    check(name && !strchr(name, '\n'), "a name is one line");
}

static FILE *reader(const uint8_t *data, size_t size)
{
    static const char empty[1];
    FILE *f = fmemopen(size ? (void *)data : (void *)empty, size ? size : 1, "r");
    check(f != NULL, "fmemopen");
    if (!size)
        fgetc(f); /* (fmemopen wants a buffer of 1 or more bytes) */
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[512];
    FILE *f;

    plot_map m;
    msg[0] = '\0';
    f = reader(data, size);
    int rc = plot_map_read(f, &m, msg, sizeof msg);
    fclose(f);
    check(rc == PLOT_TABLE_OK || rc == PLOT_TABLE_REFUSED || rc == PLOT_TABLE_FAILED, "map rc");
    if (rc != PLOT_TABLE_OK) {
        check(msg[0] != '\0', "a refused map says why");
    } else {
        check(m.n >= 4 && m.nb >= 2 && m.n % m.nb == 0 && m.n / m.nb >= 2, "a 2 x 2 grid or more");
        int ok = 0;
        for (int i = 0; i < m.n; i++) {
            check(isfinite(m.a[i]) && isfinite(m.b[i]), "finite parameters");
            check(isfinite(m.psi[i]) || isnan(m.psi[i]), "psi finite or NaN");
            ok += isfinite(m.psi[i]);
        }
        check(ok > 0, "a point to draw");
        check(m.names[0] && m.names[0][0] && m.names[1] && m.names[1][0], "two names");
        one_line(m.names[0]);
        one_line(m.names[1]);
        plot_map_free(&m);
    }

    plot_bench b;
    msg[0] = '\0';
    f = reader(data, size);
    rc = plot_bench_read(f, &b, msg, sizeof msg);
    fclose(f);
    if (rc != PLOT_TABLE_OK) {
        check(msg[0] != '\0', "a refused bench table says why");
    } else {
        check(b.n >= 2, "two rows or more");
        for (int i = 0; i < b.n; i++)
            check(b.N[i] >= 1 && isfinite(b.N[i]) && b.hes_s[i] > 0 && isfinite(b.hes_s[i]) &&
                  b.mujoco_s[i] > 0 && isfinite(b.mujoco_s[i]) &&
                  (isnan(b.eq_hes_s[i]) || (b.eq_hes_s[i] > 0 && isfinite(b.eq_hes_s[i]))),
                  "a bench row of N >= 1 and positive times");
        plot_bench_free(&b);
    }

    plot_forces p;
    msg[0] = '\0';
    f = reader(data, size);
    rc = plot_forces_read(f, &p, msg, sizeof msg);
    fclose(f);
    if (rc != PLOT_TABLE_OK) {
        check(msg[0] != '\0', "a refused forces table says why");
    } else {
        check(p.rows >= 2 && p.n_contacts >= 1, "two rows and a contact");
        for (int c = 0; c < p.n_contacts; c++) {
            one_line(p.names[c]);
            for (int d = 0; d < c; d++)
                check(strcmp(p.names[c], p.names[d]) != 0, "distinct contact names");
        }
        for (int r = 0; r < p.rows; r++) {
            check(isfinite(p.t[r]), "finite times");
            for (int c = 0; c < p.n_contacts; c++)
                check(isfinite(p.fn[(size_t)r * p.n_contacts + c]), "finite forces");
        }
        plot_forces_free(&p);
    }
    return 0;
}
