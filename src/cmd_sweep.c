/*
 * cmd_sweep.c - `hes sweep`: batch stability analysis over a tensor grid,
 * a list of points or a Latin hypercube sample of parameters
 * (hes_sweep_run), as CSV written and flushed row by row, resumable after
 * the process was killed at any moment, on N threads.
 *
 *   hes sweep PROBLEM [-p NAME=VALUE]... (--grid NAME=LO:HI:N)...
 *             | --list FILE.csv | --random N [--seed S] --bounds NAME=LO:HI...
 *             [--optimize] [--jobs N] [-o FILE.csv [--resume]] [--json]
 *
 * Rows come in index order (hes_sweep_order), each with its point index, its
 * branch-jump flag and a checksum;
 * the file (sweep_file.h: '#' lines that say what defines the sweep, locked
 * while it is written) is checked again on --resume, which keeps every valid
 * row of the same sweep (a row cut by the kill or corrupted is dropped) and
 * computes exactly the points that have none.  Every write is checked: a
 * failed one stops the sweep with exit status 1 and the reason.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "point_list.h"
#include "sweep_file.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#ifdef HAVE_MPI
#include <mpi.h>
#endif

#define MAX_SWEPT POINT_LIST_MAX_NAMES

enum { OPT_GRID = 256, OPT_LIST, OPT_RANDOM, OPT_SEED, OPT_BOUNDS, OPT_OPTIMIZE, OPT_JOBS,
       OPT_RESUME, OPT_JSON };

void cmd_sweep_usage(FILE *out)
{
    fputs("Usage: hes sweep PROBLEM [-p NAME=VALUE]... POINTS [--optimize] [--jobs N]\n"
          "                 [-o FILE.csv [--resume]] [--json]\n"
          "POINTS: (--grid NAME=LO:HI:N)...      tensor grid (the first varies slowest)\n"
          "      | --list FILE.csv                a header of parameter names, a row per point\n"
          "      | --random N [--seed S] (--bounds NAME=LO:HI)...  Latin hypercube sample\n"
          "At most " STR(CLI_MAX_POINTS) " points (N, or the product of the grid's);\n"
          "each parameter is swept once.\n"
          "Analyse the periodic orbit of PROBLEM at every point: psi, verdict, period,\n"
          "multipliers and every parameter (p.NAME: solved ones solved); a point that\n"
          "fails gets its status and message.\n\n"
          "  -p, --param NAME=VALUE  set a parameter for every point (repeatable)\n"
          "      --optimize          optimise the shape parameters at every point first\n"
          "      --jobs N            threads (1)\n"
          "  -o, --output FILE.csv   write the rows there, flushed one by one (default:\n"
          "                          standard output)\n"
          "      --resume            keep the valid rows of FILE.csv (the same sweep, killed\n"
          "                          at any moment) and compute only the missing points\n"
          "      --json              also print each row as one JSON object per line on\n"
          "                          standard output (instead of CSV without -o)\n"
          CLI_NO_CHECK_DERIVATIVES_HELP
          "  -h, --help              show this help\n", out);
}

typedef struct {
    int n;
    char names[MAX_SWEPT][POINT_LIST_NAME_MAX];
    double lo[MAX_SWEPT], hi[MAX_SWEPT];
    int count[MAX_SWEPT];
} ranges;

/* NAME=LO:HI or NAME=LO:HI:N */
static int parse_range(const char *opt, const char *text, int with_count, ranges *r)
{
    const char *eq = strchr(text, '=');
    char buf[256];
    if (r->n >= MAX_SWEPT || !eq || eq == text || (size_t)(eq - text) >= sizeof r->names[0] ||
        strlen(eq + 1) >= sizeof buf) {
        fprintf(stderr, "hes sweep: %s needs NAME=LO:HI%s (at most %d), got '%s'\n", opt,
                with_count ? ":N" : "", MAX_SWEPT, text);
        return -1;
    }
    memcpy(r->names[r->n], text, (size_t)(eq - text));
    r->names[r->n][eq - text] = '\0';
    for (int j = 0; j < r->n; j++)
        if (strcmp(r->names[j], r->names[r->n]) == 0) {
            fprintf(stderr, "hes sweep: %s %s given twice\n", opt, r->names[j]);
            return -1;
        }
    strcpy(buf, eq + 1);
    char *a = buf, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
    if (b)
        *b++ = '\0';
    if (c)
        *c++ = '\0';
    int n = 1;
    if (!b || (with_count ? !c : c != NULL) || cli_parse_double(a, &r->lo[r->n]) ||
        cli_parse_double(b, &r->hi[r->n]) || (with_count && (cli_parse_int(c, &n) || n < 1 || n > 1000000)) ||
        !(r->lo[r->n] <= r->hi[r->n])) {
        fprintf(stderr, "hes sweep: %s %s: expected NAME=LO:HI%s with numbers LO <= HI%s\n", opt,
                text, with_count ? ":N" : "", with_count ? " and N >= 1" : "");
        return -1;
    }
    r->count[r->n++] = n;
    return 0;
}

/* --list FILE: the points of a CSV file (point_list.h), names into r. */
static int read_list(const char *path, ranges *r, double **values, int *n_points)
{
    point_list pl;
    char msg[512], *data;
    int rc;
    FILE *f = cli_input_open("hes sweep", "--list", path, &data, &rc);
    if (!f)
        return rc;
    int st = point_list_read(f, &pl, msg, sizeof msg);
    cli_input_close(f, data);
    if (st != POINT_LIST_OK) {
        fprintf(stderr, "hes sweep: --list %s: %s\n", path, msg);
        return st == POINT_LIST_BAD ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    r->n = pl.n_names;
    memcpy(r->names, pl.names, sizeof pl.names);
    *values = pl.values;
    *n_points = pl.n_points;
    return CLI_EXIT_OK;
}

typedef struct {
    const hes_system *sys;       /* the base point's system (either kind) */
    const ranges *r;
    const int *pidx;
    const double *values;
    FILE *csv;                   /* the rows (NULL: none) */
    const char *label;           /* its name in messages */
    int regular;                 /* csv is a regular file: fsync it */
    int failed;                  /* a write failed (and was reported) */
    double synced;               /* when csv was last fsync'd */
    int json, n_mult, done, total, tty;
    double t0;
    int rank, size;              /* MPI: this process, of how many (1: no MPI) */
    int size_done;               /* MPI, rank 0: ranks that said they are done */
    hes_sweep_order *order;      /* MPI, rank 0: the rows of every rank in index order */
#ifdef HAVE_MPI
    MPI_Win win;                 /* MPI: rank 0's counter of the next point to hand out */
#endif
} writer;

#ifdef HAVE_MPI
static int serve(writer *w, int wait);
#endif

/* The index of parameter `name` of the system, or -1. */
static int param_index(const hes_system *sys, const char *name)
{
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, name) == 0)
            return i;
    return -1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The CSV header of the rows (malloc'd, without newline; NULL: out of memory). */
static char *columns(const writer *w)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    fputs("index", f);
    for (int j = 0; j < w->r->n; j++)
        fprintf(f, ",%s", w->r->names[j]);
    fputs(",status,psi,stable,verdict,period", f);
    for (int k = 0; k < w->n_mult; k++)
        fprintf(f, ",mult%d_re,mult%d_im", k + 1, k + 1);
    for (int i = 0; i < hes_system_n_params(w->sys) && i < HES_SWEEP_MAX_PARAMS; i++)
        fprintf(f, ",p.%s", hes_system_param_info(w->sys, i)->name);
    fputs(",branch_jump,message,crc32", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static const char *status_name(hes_status st)
{
    return st == HES_OK ? "ok" : hes_strerror(st);
}

/* A write to w->label failed (errno says why): said once; the sweep stops. */
static int write_failed(writer *w, const char *label)
{
    int e = errno;
    if (!w->failed)
        fprintf(stderr, "hes sweep: %s %s: %s\n",
                strcmp(label, "standard output") == 0 ? "write error on" : "cannot write",
                label, strerror(e ? e : EIO));
    w->failed = 1;
#ifdef HAVE_MPI
    if (w->size > 1 || w->size < -1) /* the other ranks would wait for rank 0 */
        MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
#endif
    return -1;
}

/* The text of a row's CSV line before its checksum (malloc'd, *len bytes). */
static char *row_text(const writer *w, const hes_sweep_row *row, size_t *len)
{
    const double *pt = w->values + (size_t)row->index * w->r->n;
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fprintf(f, "%d", row->index);
    for (int j = 0; j < w->r->n; j++)
        fprintf(f, ",%.17g", pt[j]);
    fprintf(f, ",%s", status_name(row->status));
    if (row->status == HES_OK)
        fprintf(f, ",%.17g,%d,%s,%.17g", row->psi, row->stable, hes_verdict_name(row->verdict),
                row->period);
    else
        fputs(",,,,", f);
    for (int k = 0; k < w->n_mult; k++)
        if (row->status == HES_OK && k < row->n_mult)
            fprintf(f, ",%.17g,%.17g", row->re[k], row->im[k]);
        else
            fputs(",,", f);
    for (int i = 0; i < hes_system_n_params(w->sys) && i < HES_SWEEP_MAX_PARAMS; i++) {
        if (row->status == HES_OK && i < row->n_values)
            fprintf(f, ",%.17g", row->values[i]);
        else
            fputs(",", f);
    }
    fprintf(f, ",%d,", row->status == HES_OK ? row->branch_jump : 0);
    for (const char *c = row->message; *c; c++) /* one field: no commas, quotes, newlines */
        fputc(*c == ',' ? ';' : *c == '"' ? '\'' : *c == '\n' || *c == '\r' ? ' ' : *c, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A row in its turn: to the file, standard output and the progress line. */
static int emit_row(void *ctx, const hes_sweep_row *row)
{
    writer *w = ctx;
    if (w->failed)
        return -1;
    const double *pt = w->values + (size_t)row->index * w->r->n;
    if (w->csv) {
        size_t len;
        char *text = row_text(w, row, &len);
        if (!text) {
            fprintf(stderr, "hes sweep: out of memory\n");
            w->failed = 1;
            return -1;
        }
        int bad = sweep_file_put_row(w->csv, text, len);
        free(text);
        if (bad)
            return write_failed(w, w->label);
        if (w->regular && now() - w->synced >= 1.0) { /* durable, at most a second behind */
            if (fsync(fileno(w->csv)) != 0)
                return write_failed(w, w->label);
            w->synced = now();
        }
    }
    if (w->json) {
        char *line = hes_sweep_row_json(w->sys, w->r->n, w->pidx, pt, row);
        if (!line) {
            fprintf(stderr, "hes sweep: out of memory\n");
            w->failed = 1;
            return -1;
        }
        puts(line);
        free(line);
        if (fflush(stdout) != 0 || ferror(stdout))
            return write_failed(w, "standard output");
    }
    w->done++;
    if (w->tty) {
        double el = now() - w->t0, rate = el > 0 ? w->done / el : 0;
        int bar = w->total ? 30 * w->done / w->total : 30;
        fprintf(stderr, "\r[%-30.*s] %d/%d  %.1f points/s  ETA %.0f s ", bar,
                "##############################", w->done, w->total, rate,
                rate > 0 ? (w->total - w->done) / rate : 0.0);
        if (w->done == w->total)
            fputc('\n', stderr);
    }
    return 0;
}

/* Every row, from this process's threads or (rank 0) from another rank:
 * under MPI rank 0 puts them in index order (the library does so for
 * threads), then writes them. */
static int write_row(void *ctx, const hes_sweep_row *row)
{
    writer *w = ctx;
#ifdef HAVE_MPI
    if (w->size > 1 && w->rank > 0) { /* rows go to rank 0, which writes them */
        MPI_Send(row, (int)sizeof *row, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        return 0;
    }
#endif
    int rc = w->order ? hes_sweep_order_put(w->order, row, emit_row, w) : emit_row(w, row);
#ifdef HAVE_MPI
    if (rc == 0 && w->size > 1) /* rank 0: serve the other ranks between its own points */
        serve(w, 0);
#endif
    return rc;
}

/* The text that says which points a sweep has (the "# points:" line). */
static char *points_text(const ranges *grid, const ranges *bounds, int n_random, unsigned long seed,
                         const ranges *list, const double *values, int n_points)
{
    char *text = NULL, v[3][32];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (grid->n) {
        fputs("grid", f);
        for (int j = 0; j < grid->n; j++) {
            sweep_file_format_double(v[0], sizeof v[0], grid->lo[j]);
            sweep_file_format_double(v[1], sizeof v[1], grid->hi[j]);
            fprintf(f, " %s=%s:%s:%d", grid->names[j], v[0], v[1], grid->count[j]);
        }
    } else if (n_random) {
        fprintf(f, "random %d seed=%lu", n_random, seed);
        for (int j = 0; j < bounds->n; j++) {
            sweep_file_format_double(v[0], sizeof v[0], bounds->lo[j]);
            sweep_file_format_double(v[1], sizeof v[1], bounds->hi[j]);
            fprintf(f, " %s=%s:%s", bounds->names[j], v[0], v[1]);
        }
    } else { /* the list's names and numbers, hashed */
        uint64_t h = SWEEP_FILE_FNV_START;
        fputs("list ", f);
        for (int j = 0; j < list->n; j++) {
            fprintf(f, "%s%s", j ? "," : "", list->names[j]);
            h = sweep_file_fnv1a64(h, list->names[j], strlen(list->names[j]) + 1);
        }
        for (size_t i = 0; i < (size_t)n_points * list->n; i++) {
            int n = snprintf(v[2], sizeof v[2], "%.17g", values[i]);
            h = sweep_file_fnv1a64(h, v[2], (size_t)n + 1);
        }
        fprintf(f, " %d point%s fnv1a64=%016" PRIx64, n_points, n_points == 1 ? "" : "s", h);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The '#' lines and header of this sweep's file (malloc'd; NULL: out of
 * memory): problem, every parameter that is not swept, the points,
 * --optimize, the version. */
static char *preamble_text(const writer *w, const double *params, const char *points, int optimize)
{
    const char *names[HES_SWEEP_MAX_PARAMS];
    double vals[HES_SWEEP_MAX_PARAMS];
    int n = 0;
    for (int i = 0; i < hes_system_n_params(w->sys) && i < HES_SWEEP_MAX_PARAMS; i++) {
        int swept = 0;
        for (int j = 0; j < w->r->n; j++)
            swept |= w->pidx[j] == i;
        if (!swept) {
            names[n] = hes_system_param_info(w->sys, i)->name;
            vals[n++] = params[i];
        }
    }
    char *cols = columns(w);
    sweep_file_id id = { PACKAGE_VERSION, hes_system_name(w->sys), points, optimize, n, names, vals, cols };
    char *text = cols ? sweep_file_preamble(&id) : NULL;
    free(cols);
    return text;
}

/* -o FILE (rank 0): opened and locked; with --resume its valid rows kept
 * (their points marked in skip, *kept of them), else emptied; the '#'
 * lines and header written when it has none.  Returns the exit status. */
static int open_output(writer *w, const char *path, int resume, const char *preamble, int n_points,
                       unsigned char *skip, int *kept)
{
    char msg[1024];
    int fd, st = sweep_file_open(path, resume, &fd, &w->regular, msg, sizeof msg);
    long long end = 0;
    if (st != SWEEP_FILE_OK) {
        fprintf(stderr, "hes sweep: %s%s: %s\n", resume ? "--resume " : "", path, msg);
        return st == SWEEP_FILE_IO ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    if (msg[0])
        fprintf(stderr, "hes sweep: warning: %s: %s\n", path, msg);
    if (resume) {
        int rfd = dup(fd);
        FILE *in = rfd >= 0 ? fdopen(rfd, "r") : NULL;
        sweep_file_points pts = { n_points, w->r->n, w->values };
        sweep_file_scan_result res;
        if (!in) {
            snprintf(msg, sizeof msg, "%s", strerror(errno));
            st = SWEEP_FILE_IO;
            if (rfd >= 0)
                close(rfd);
        } else {
            st = sweep_file_scan(in, fd, preamble, &pts, skip, &res, msg, sizeof msg);
            fclose(in);
        }
        if (st != SWEEP_FILE_OK) {
            fprintf(stderr, "hes sweep: --resume %s: %s\n", path, msg);
            close(fd);
            return st == SWEEP_FILE_REFUSED ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
        }
        int dropped = res.corrupted + res.duplicates + res.cut;
        if (dropped) {
            fprintf(stderr, "hes sweep: --resume %s: dropped", path);
            if (res.corrupted)
                fprintf(stderr, " %d corrupted row%s (checksum, index or values wrong)%s", res.corrupted,
                        res.corrupted == 1 ? "" : "s", res.duplicates || res.cut ? "," : "");
            if (res.duplicates)
                fprintf(stderr, " %d duplicate row%s%s", res.duplicates, res.duplicates == 1 ? "" : "s",
                        res.cut ? "," : "");
            if (res.cut)
                fputs(" a last row cut short", stderr);
            fputs("; the points without a valid row are computed again\n", stderr);
        }
        end = res.end;
        *kept = res.kept;
    }
    if (w->regular && lseek(fd, (off_t)end, SEEK_SET) < 0) {
        fprintf(stderr, "hes sweep: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        return CLI_EXIT_FAILURE;
    }
    if (!(w->csv = fdopen(fd, "w"))) {
        fprintf(stderr, "hes sweep: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        return CLI_EXIT_FAILURE;
    }
    w->label = path;
    w->synced = now();
    if (end == 0 && (fputs(preamble, w->csv) == EOF || fflush(w->csv) != 0 ||
                     (w->regular && fsync(fd) != 0))) {
        write_failed(w, path);
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

#ifdef HAVE_MPI
/* Dynamic load balancing across ranks, every rank computing: the next
 * point to hand out is one integer in a window on rank 0, and a rank takes
 * a block by an atomic fetch-and-add on it (MPI_Fetch_and_op, passive
 * target: rank 0 need not answer, so nobody waits on a rank that is
 * computing).  Rows go to rank 0 as small eager messages (tag 1, about 1 kB:
 * the sender does not wait for the receive); rank 0 writes them between
 * its own points (serve with wait = 0) and at the end, with the "done"
 * messages (tag 2; wait = 1: until every other rank is done). */
static int mpi_next_block(void *ctx, int block)
{
    writer *w = ctx;
    int first;
    MPI_Fetch_and_op(&block, &first, MPI_INT, 0, 0, MPI_SUM, w->win);
    MPI_Win_flush(0, w->win); /* completes it: first is read */
    return first;
}

static int serve(writer *w, int wait)
{
    int done = 0;
    for (;;) {
        MPI_Status stat;
        int flag = 1;
        if (wait)
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &stat);
        else
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &stat);
        if (!flag)
            return done;
        if (stat.MPI_TAG == 1) {
            hes_sweep_row other;
            MPI_Recv(&other, (int)sizeof other, MPI_BYTE, stat.MPI_SOURCE, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            w->size = -w->size; /* write it here, without serving again */
            write_row(w, &other);
            w->size = -w->size;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, stat.MPI_SOURCE, stat.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (stat.MPI_TAG == 2) {
                done++;
                if (++w->size_done >= w->size - 1 && wait)
                    return done;
            }
        }
    }
}

/* Under mpirun (OpenMPI or PMIx in the environment) the sweep is shared. */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}
#endif

static int sweep(int argc, char **argv, int rank, int size)
{
    static const struct option longopts[] = {
        {"param", required_argument, NULL, 'p'},
        CLI_NO_CHECK_DERIVATIVES_OPTION,
        {"grid", required_argument, NULL, OPT_GRID},
        {"list", required_argument, NULL, OPT_LIST},
        {"random", required_argument, NULL, OPT_RANDOM},
        {"seed", required_argument, NULL, OPT_SEED},
        {"bounds", required_argument, NULL, OPT_BOUNDS},
        {"optimize", no_argument, NULL, OPT_OPTIMIZE},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"output", required_argument, NULL, 'o'},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_assignments params;
    ranges grid, bounds, list;
    const char *list_path = NULL, *out_path = NULL;
    int c, rc = CLI_EXIT_OK, n_random = 0, optimize = 0, jobs = 1, resume = 0, json = 0;
    int seed_given = 0;
    unsigned long seed = 1;
    memset(&grid, 0, sizeof grid);
    memset(&bounds, 0, sizeof bounds);
    memset(&list, 0, sizeof list);
    cli_assignments_init(&params);
    optind = 1;
    unsigned char seen[CLI_OPTION_CODES] = {0};
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "p:o:h", longopts, NULL)) != -1) {
        if ((c == OPT_LIST || c == OPT_RANDOM || c == OPT_SEED || c == OPT_JOBS || c == 'o') &&
            (rc = cli_once(argv[0], longopts, c, seen)) != CLI_EXIT_OK)
            break;
        switch (c) {
        case CLI_OPT_NO_CHECK_DERIVATIVES:
            params.no_check_derivatives = 1;
            break;
        case 'p':
            if (cli_assignments_add(&params, optarg))
                rc = CLI_EXIT_FAILURE;
            break;
        case OPT_GRID:
            if (parse_range("--grid", optarg, 1, &grid))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_BOUNDS:
            if (parse_range("--bounds", optarg, 0, &bounds))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_LIST:
            list_path = optarg;
            break;
        case OPT_RANDOM:
            if (cli_int_option("hes sweep", "--random", optarg, 1, CLI_MAX_POINTS, &n_random))
                rc = CLI_EXIT_USAGE;
            break;
        case OPT_SEED:
            seed_given = 1;
            if (cli_parse_ulong(optarg, &seed)) {
                fprintf(stderr, "hes sweep: --seed needs a non-negative integer, got '%s'\n", optarg);
                rc = CLI_EXIT_USAGE;
            }
            break;
        case OPT_OPTIMIZE:
            optimize = 1;
            break;
        case OPT_JOBS:
            if (cli_int_option("hes sweep", "--jobs", optarg, 1, 1024, &jobs))
                rc = CLI_EXIT_USAGE;
            break;
        case 'o':
            out_path = optarg;
            break;
        case OPT_RESUME:
            resume = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'h':
            cmd_sweep_usage(stdout);
            cli_assignments_free(&params);
            return CLI_EXIT_OK;
        default:
            cmd_sweep_usage(stderr);
            rc = CLI_EXIT_USAGE;
        }
    }
    int kinds = (grid.n > 0) + (list_path != NULL) + (n_random > 0);
    if (rc == CLI_EXIT_OK && kinds != 1) {
        fprintf(stderr, "hes sweep: give exactly one of --grid, --list and --random\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && ((n_random > 0) != (bounds.n > 0))) {
        fprintf(stderr, "hes sweep: --random and --bounds go together\n");
        rc = CLI_EXIT_USAGE;
    }
    for (int j = 0; rc == CLI_EXIT_OK && j < params.n; j++) { /* -p NAME of a swept NAME */
        const ranges *sw = grid.n ? &grid : &bounds;
        for (int k = 0; k < sw->n; k++)
            if (strncmp(params.items[j], sw->names[k], strlen(sw->names[k])) == 0 &&
                params.items[j][strlen(sw->names[k])] == '=') {
                fprintf(stderr, "hes sweep: -p %s: %s is swept (--%s)\n", params.items[j],
                        sw->names[k], grid.n ? "grid" : "bounds");
                rc = CLI_EXIT_USAGE;
            }
    }
    if (rc == CLI_EXIT_OK && seed_given && !n_random) {
        fprintf(stderr, "hes sweep: --seed only goes with --random\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && resume && !out_path) {
        fprintf(stderr, "hes sweep: --resume needs -o FILE.csv\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && argc - optind != 1) {
        fprintf(stderr, "hes sweep: expected exactly one PROBLEM\n");
        rc = CLI_EXIT_USAGE;
    }
    /* the system of either kind: one sweep for every model with an orbit */
    const hes_ess_model *ess_model = rc == CLI_EXIT_OK ? cli_find_ess_problem(argv[optind]) : NULL;
    const hes_model *model = rc == CLI_EXIT_OK && !ess_model ? cli_find_problem(argv[optind]) : NULL;
    if (rc == CLI_EXIT_OK && !model && !ess_model)
        rc = CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK && model && !model->orbit.guess) {
        fprintf(stderr, "hes sweep: problem '%s' has no periodic orbit to analyse\n", model->name);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && ess_model && !ess_model->orbit_x0) {
        fprintf(stderr, "hes sweep: '%s' has no periodic orbit guess to start each point's "
                "search from\n", ess_model->name);
        rc = CLI_EXIT_USAGE;
    }
    hes_system *sys = rc != CLI_EXIT_OK ? NULL
                      : model ? cli_system_setup(model, &params, &rc)
                              : cli_system_setup_ess(ess_model, &params, &rc);
    cli_assignments_free(&params);
    if (!sys)
        return rc;
    int n_shape = 0, np = hes_system_n_params(sys);
    for (int i = 0; i < np; i++)
        n_shape += (hes_system_param_info(sys, i)->flags & HES_PARAM_SHAPE) != 0;
    if (rc == CLI_EXIT_OK && np > HES_SWEEP_MAX_PARAMS) {
        fprintf(stderr, "hes sweep: problem '%s' has %d parameters; a sweep handles at most %d\n",
                hes_system_name(sys), np, HES_SWEEP_MAX_PARAMS);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && optimize && (n_shape == 0 || ess_model)) {
        fprintf(stderr, "hes sweep: --optimize: problem '%s' has no shape parameters%s\n",
                hes_system_name(sys), ess_model ? " (an event-selected system has no saltation "
                "matrices for them to enter)" : "");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        hes_system_destroy(sys);
        return rc;
    }
    /* the points */
    const ranges *r = grid.n ? &grid : n_random ? &bounds : &list;
    double *values = NULL;
    int n_points = 0, pidx[MAX_SWEPT];
    if (list_path)
        rc = read_list(list_path, &list, &values, &n_points);
    for (int j = 0; rc == CLI_EXIT_OK && j < r->n; j++)
        if ((pidx[j] = param_index(sys, r->names[j])) < 0) {
            fprintf(stderr, "hes sweep: problem '%s' has no parameter '%s'\n",
                    hes_system_name(sys), r->names[j]);
            rc = CLI_EXIT_USAGE;
        } else if (hes_system_param_info(sys, pidx[j])->flags & HES_PARAM_SOLVED) {
            fprintf(stderr, "hes sweep: '%s' is solved for by the orbit search (its value is "
                    "found, not set): a sweep over it would only move Newton's start; sweep "
                    "the parameters that define the orbit instead\n", r->names[j]);
            rc = CLI_EXIT_USAGE;
        }
    if (rc == CLI_EXIT_OK && grid.n) {
        long total;
        if (hes_grid_tensor_size(grid.n, grid.count, &total) != HES_OK || total > 10000000) {
            fprintf(stderr, "hes sweep: more than 10000000 grid points\n");
            rc = CLI_EXIT_USAGE;
        } else if ((values = malloc(sizeof(double) * (size_t)total * (size_t)grid.n))) {
            n_points = (int)total;
            if (hes_grid_tensor(grid.n, grid.lo, grid.hi, grid.count, values) != HES_OK) {
                fprintf(stderr, "hes sweep: --grid: HI - LO must be a finite number\n");
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    if (rc == CLI_EXIT_OK && n_random &&
        (values = malloc(sizeof(double) * (size_t)n_random * (size_t)bounds.n))) {
        n_points = n_random;
        hes_latin_hypercube(n_random, bounds.n, bounds.lo, bounds.hi, seed, values);
    }
    if (rc == CLI_EXIT_OK && !values) {
        fprintf(stderr, "hes sweep: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    unsigned char *skip = rc == CLI_EXIT_OK ? calloc((size_t)n_points + 1, 1) : NULL;
    if (rc == CLI_EXIT_OK && !skip) {
        fprintf(stderr, "hes sweep: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    writer w = { .sys = sys, .r = r, .pidx = pidx, .values = values, .json = json && rank == 0,
                 .n_mult = model ? model->modes[model->orbit.mode].dim : ess_model->n,
                 .rank = rank, .size = size };
    if (w.n_mult > HES_SWEEP_MAX_MULT)
        w.n_mult = HES_SWEEP_MAX_MULT;
    int kept = 0;
    if (rc == CLI_EXIT_OK && rank == 0) { /* only rank 0 reads and writes the file */
        char *points = points_text(&grid, &bounds, n_random, seed, &list, values, n_points);
        char *pre = points ? preamble_text(&w, hes_system_params(sys), points, optimize) : NULL;
        char *cols = columns(&w);
        if (!pre || !cols) {
            fprintf(stderr, "hes sweep: out of memory\n");
            rc = CLI_EXIT_FAILURE;
        } else if (out_path) {
            rc = open_output(&w, out_path, resume, pre, n_points, skip, &kept);
        } else if (!json) { /* standard output: the CSV header and rows only */
            w.csv = stdout;
            w.label = "standard output";
            if (printf("%s\n", cols) < 0 || fflush(stdout) != 0) {
                write_failed(&w, w.label);
                rc = CLI_EXIT_FAILURE;
            }
        }
        free(cols);
        free(pre);
        free(points);
    }
#ifdef HAVE_MPI
    if (size > 1) { /* every rank has reached here with the same points */
        MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rc == CLI_EXIT_OK) {
            MPI_Bcast(skip, n_points, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
            MPI_Bcast(&kept, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
    }
#endif
#ifdef HAVE_MPI
    int so_win = 0;          /* the window exists (collective to free) */
#endif
    if (rc == CLI_EXIT_OK) {
        /* neighbours along each grid axis: the stride of axis j is the
           product of the counts of the axes after it (the last varies
           fastest) */
        int strides[MAX_SWEPT], n_strides = 0;
        for (int j = grid.n - 1, st = 1; j >= 0; st *= grid.count[j--])
            strides[n_strides++] = st;
        hes_sweep_opts so = { r->n, pidx, n_points, values, optimize, jobs, skip, write_row, &w, NULL,
                              n_strides, n_strides ? strides : NULL, NULL };
        hes_settings set = hes_system_get_settings(sys);
        so.settings = &set;
#ifdef HAVE_MPI
        int *counter = NULL;
        if (size > 1) {
            MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &counter, &w.win);
            if (rank == 0)
                *counter = 0;
            MPI_Barrier(MPI_COMM_WORLD);   /* the counter is set before anyone takes */
            /* one passive-target epoch on every rank for the whole sweep:
               a block is one fetch-and-add and a flush, with no lock
               taken and released per block */
            MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
            so.next_block = mpi_next_block;
            so_win = 1;
            if (rank == 0 && !(w.order = hes_sweep_order_new(n_points, r->n, values, skip,
                                                              so.n_strides, so.strides))) {
                fprintf(stderr, "hes sweep: out of memory\n");
                MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
            }
        }
#endif
        w.total = n_points - kept;
        w.tty = rank == 0 && isatty(STDERR_FILENO);
        w.t0 = now();
        char why[512];
        if (hes_sweep_run_system(sys, &so, why, sizeof why) != HES_OK) {
            if (!w.failed)
                fprintf(stderr, "hes sweep: the sweep could not run: %s\n", why);
            rc = CLI_EXIT_FAILURE;
        }
    }
#ifdef HAVE_MPI
    if (size > 1 && so_win) {
        /* every rank says it is done, also after a failure, so that rank 0
           does not wait for it; then the window goes, on every rank */
        if (rank > 0)
            MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD); /* done */
        else if (w.size_done < size - 1)
            serve(&w, 1); /* the others' last rows */
        MPI_Win_unlock_all(w.win);
        MPI_Win_free(&w.win);
        MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
#endif
    /* success only with every row written, flushed and (in a file) synced */
    if (rc == CLI_EXIT_OK && rank == 0 && kept + w.done != n_points) {
        fprintf(stderr, "hes sweep: only %d of %d points have a row%s%s\n", kept + w.done, n_points,
                out_path ? " in " : "", out_path ? out_path : "");
        rc = CLI_EXIT_FAILURE;
    }
    if (w.csv && w.csv != stdout) {
        if (rc == CLI_EXIT_OK && (fflush(w.csv) != 0 || (w.regular && fsync(fileno(w.csv)) != 0))) {
            write_failed(&w, w.label);
            rc = CLI_EXIT_FAILURE;
        }
        if (fclose(w.csv) != 0 && rc == CLI_EXIT_OK) {
            write_failed(&w, w.label);
            rc = CLI_EXIT_FAILURE;
        }
    }
    if (rc == CLI_EXIT_OK && rank == 0 && (w.csv == stdout || w.json) && fflush(stdout) != 0) {
        write_failed(&w, "standard output");
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK && rank == 0) {
        double el = now() - w.t0;
        fprintf(stderr, "hes sweep: %d points in %.3f s (%.1f points/s) on %d rank%s x %d thread%s\n",
                w.done, el, el > 0 ? w.done / el : 0.0, size, size == 1 ? "" : "s", jobs,
                jobs == 1 ? "" : "s");
    }
    hes_sweep_order_destroy(w.order);
    free(skip);
    free(values);
    hes_system_destroy(sys);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
#ifdef HAVE_MPI
    if (under_mpirun()) { /* hes sweep under mpirun -np N: one sweep over all ranks */
        int provided, rank, size, rc;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
            fprintf(stderr, "hes sweep: MPI_Init_thread failed\n");
            return CLI_EXIT_FAILURE;
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (provided < MPI_THREAD_SERIALIZED && size > 1)
            fprintf(stderr, "hes sweep: this MPI does not support threads; use --jobs 1\n");
        rc = sweep(argc, argv, rank, size);
        MPI_Finalize();
        return rc;
    }
#endif
    return sweep(argc, argv, 0, 1);
}
