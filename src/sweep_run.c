/*
 * sweep_run.c - running `hes sweep` over its points (cmd_sweep.h): the
 * library writes the rows to the CSV file or standard output
 * (hes_sweep_run_mpi, over every MPI rank under mpirun); rank 0 also prints
 * each row as JSON with --json and redraws the progress bar on a terminal,
 * reports what --resume kept and dropped, and ends with the summary line.
 * Every write is checked: a failed one stops the sweep with exit status 1
 * and the reason, and success needs a row for every point.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_sweep.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* What the row callback needs and counts. */
typedef struct {
    const hes_system *sys;       /* the base point's system (either kind) */
    const sweep_points *p;
    const hes_sweep_file_report *rep; /* the file's: the points it kept */
    int failed;                  /* a write failed (and was reported) */
    int json, done, tty;
    double t0;
} writer;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A write to standard output failed: said once; the sweep stops. */
static int write_failed(writer *w)
{
    int e = errno;
    if (!w->failed)
        fprintf(stderr, "hes sweep: write error on standard output: %s\n", strerror(e ? e : EIO));
    w->failed = 1;
    return -1;
}

/* The progress bar on a terminal, after each row. */
static void show_progress(const writer *w)
{
    int total = w->p->n_points - w->rep->kept;
    double el = now() - w->t0, rate = el > 0 ? w->done / el : 0;
    int bar = total ? 30 * w->done / total : 30;
    fprintf(stderr, "\r[%-30.*s] %d/%d  %.1f points/s  ETA %.0f s ", bar,
            "##############################", w->done, total, rate,
            rate > 0 ? (total - w->done) / rate : 0.0);
    if (w->done == total)
        fputc('\n', stderr);
}

/* A row in its turn (rank 0, in index order, after the library wrote it to
 * the file): to standard output as JSON, and the progress line. */
static int emit_row(void *ctx, const hes_sweep_row *row)
{
    writer *w = ctx;
    if (w->failed)
        return -1;
    if (w->json) {
        const double *pt = w->p->values + (size_t)row->index * w->p->r->n;
        char *line = hes_sweep_row_json(w->sys, w->p->r->n, w->p->pidx, pt, row);
        if (!line) {
            fprintf(stderr, "hes sweep: out of memory\n");
            w->failed = 1;
            return -1;
        }
        puts(line);
        free(line);
        if (fflush(stdout) != 0 || ferror(stdout))
            return write_failed(w);
    }
    w->done++;
    if (w->tty)
        show_progress(w);
    return 0;
}

/* What --resume kept and dropped, and a warning of the file's (no locks). */
static void report_resume(const char *path, const hes_sweep_file_report *rep)
{
    if (rep->warning[0])
        fprintf(stderr, "hes sweep: warning: %s: %s\n", path, rep->warning);
    if (!(rep->corrupted + rep->duplicates + rep->cut))
        return;
    fprintf(stderr, "hes sweep: --resume %s: dropped", path);
    if (rep->corrupted)
        fprintf(stderr, " %d corrupted row%s (checksum, index or values wrong)%s", rep->corrupted,
                rep->corrupted == 1 ? "" : "s", rep->duplicates || rep->cut ? "," : "");
    if (rep->duplicates)
        fprintf(stderr, " %d duplicate row%s%s", rep->duplicates, rep->duplicates == 1 ? "" : "s",
                rep->cut ? "," : "");
    if (rep->cut)
        fputs(" a last row cut short", stderr);
    fputs("; the points without a valid row are computed again\n", stderr);
}

/* The sweep itself, its rows to w and to the file (or standard output):
 * the exit status, after saying why it failed. */
static int run_points(const hes_system *sys, const sweep_cli *o, writer *w,
                      hes_sweep_file_report *rep, int rank)
{
    const sweep_points *p = w->p;
    const char *out_path = o->fo.path;
    /* neighbours along each grid axis: the stride of axis j is the product
       of the counts of the axes after it (the last varies fastest) */
    int strides[SWEEP_MAX_SWEPT], n_strides = 0;
    for (int j = o->grid.n - 1, st = 1; j >= 0; st *= o->grid.count[j--])
        strides[n_strides++] = st;
    hes_sweep_options so = o->so;
    so.n_params = p->r->n;
    so.params = p->pidx;
    so.n_points = p->n_points;
    so.values = p->values;
    so.row = emit_row;
    so.ctx = w;
    so.n_strides = n_strides;
    so.strides = n_strides ? strides : NULL;
    hes_settings set = hes_system_get_settings(sys);
    so.settings = &set;
    /* the rows' CSV: the file, or standard output (the header and rows only) */
    hes_sweep_file_options fo = o->fo;
    fo.stream = out_path ? NULL : stdout;
    fo.stream_name = "standard output";
    fo.points = p->text;
    fo.version = PACKAGE_VERSION;
    hes_error why;
    w->t0 = now();
    hes_status st = hes_sweep_run_mpi(sys, &so, out_path || !o->json ? &fo : NULL, rep, &why);
    if (rank == 0 && out_path)
        report_resume(out_path, rep);
    if (st != HES_OK && !w->failed && rank == 0) {
        /* the file's failures name it; a resume refused is the option's */
        int of_file = out_path && strncmp(why.message, out_path, strlen(out_path)) == 0;
        fprintf(stderr, "hes sweep: %s%s\n", of_file && fo.resume ? "--resume "
                        : st == HES_EIO || of_file ? "" : "the sweep could not run: ", why.message);
    }
    if (st == HES_OK)
        return CLI_EXIT_OK;
    return w->failed || st == HES_EIO ? CLI_EXIT_FAILURE : hes_status_exit_code(st);
}

int sweep_run(const hes_system *sys, const sweep_cli *o, const sweep_points *p, int rank,
              int size)
{
    hes_sweep_file_report rep = { 0, 0, 0, 0, "" };
    writer w = { .sys = sys, .p = p, .rep = &rep, .json = o->json && rank == 0,
                 .tty = rank == 0 && isatty(STDERR_FILENO) };
    int rc = run_points(sys, o, &w, &rep, rank);
    if (rc != CLI_EXIT_OK || rank != 0)
        return rc;
    /* success only with every row written, flushed and (in a file) synced */
    if (rep.kept + w.done != p->n_points) {
        fprintf(stderr, "hes sweep: only %d of %d points have a row%s%s\n", rep.kept + w.done,
                p->n_points, o->fo.path ? " in " : "", o->fo.path ? o->fo.path : "");
        return CLI_EXIT_FAILURE;
    }
    if (w.json && fflush(stdout) != 0) {
        write_failed(&w);
        return CLI_EXIT_FAILURE;
    }
    double el = now() - w.t0;
    int jobs = o->so.jobs;
    fprintf(stderr, "hes sweep: %d points in %.3f s (%.1f points/s) on %d rank%s x %d thread%s\n",
            w.done, el, el > 0 ? w.done / el : 0.0, size, size == 1 ? "" : "s", jobs,
            jobs == 1 ? "" : "s");
    return CLI_EXIT_OK;
}
