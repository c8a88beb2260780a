/*
 * sweep_csv.c - a sweep's rows in a CSV file as they come, resumable
 * (hes_sweep_file_open, _put, _close, and hes_sweep_run_file that runs a
 * whole sweep into one).  The file's format, its lock and the scan that
 * keeps a resumed file's valid rows are sweep_file.c's; here: the header
 * (index, the swept values, status, psi, stable, verdict, period, the
 * multipliers' real and imaginary parts, every parameter as p.NAME,
 * branch_jump, message, crc32), the text of a row, the '#' lines of this
 * sweep (its problem, every parameter not swept, its points, optimize, the
 * version), and the writes: each row flushed, a regular file synced at
 * most a second behind and at the close.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch/sweep_file.h"
#include "hybrid/hybrid.h"

void hes_sweep_file_options_init(hes_sweep_file_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

struct hes_sweep_file {
    FILE *f;
    int regular, stream, failed;
    char *label;                 /* the path, or the stream's name, for messages */
    double synced;               /* monotonic time of the last fsync */
    const char *name;            /* the system's, and its parameters' names */
    int n_params;
    const char **param_names;
    int n_swept, n_points, n_mult;
    int *swept;                  /* parameter indices */
    const double *values;        /* n_points x n_swept, the caller's */
    char msg[512];
};

/* The orbit's state dimension: the columns of multipliers. */
static int orbit_dim(const hes_system *sys)
{
    if (sys->kind == HES_KIND_ESS)
        return sys->ess_model->n;
    return sys->model->modes[sys->model->orbit.mode].dim;
}

static hes_status say(hes_sweep_file *s, hes_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static hes_status say(hes_sweep_file *s, hes_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* A write failed (errno says why): said once, and every later put fails. */
static hes_status write_failed(hes_sweep_file *s)
{
    int e = errno;
    if (!s->failed)
        say(s, HES_EIO, "%s %s: %s", s->stream ? "write error on" : "cannot write", s->label,
            strerror(e ? e : EIO));
    s->failed = 1;
    return HES_EIO;
}

/* The CSV header (malloc'd, without newline; NULL: out of memory). */
static char *columns(const hes_sweep_file *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    fputs("index", f);
    for (int j = 0; j < s->n_swept; j++)
        fprintf(f, ",%s", s->param_names[s->swept[j]]);
    fputs(",status,psi,stable,verdict,period", f);
    for (int k = 0; k < s->n_mult; k++)
        fprintf(f, ",mult%d_re,mult%d_im", k + 1, k + 1);
    for (int i = 0; i < s->n_params; i++)
        fprintf(f, ",p.%s", s->param_names[i]);
    fputs(",branch_jump,message,crc32", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The text of a row's CSV line before its checksum (malloc'd, *len bytes). */
static char *row_text(const hes_sweep_file *s, const hes_sweep_row *row, size_t *len)
{
    const double *pt = s->values + (size_t)row->index * s->n_swept;
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fprintf(f, "%d", row->index);
    for (int j = 0; j < s->n_swept; j++)
        fprintf(f, ",%.17g", pt[j]);
    fprintf(f, ",%s", row->status == HES_OK ? "ok" : hes_strerror(row->status));
    if (row->status == HES_OK)
        fprintf(f, ",%.17g,%d,%s,%.17g", row->psi, row->stable, hes_verdict_name(row->verdict),
                row->period);
    else
        fputs(",,,,", f);
    for (int k = 0; k < s->n_mult; k++)
        if (row->status == HES_OK && k < row->n_mult)
            fprintf(f, ",%.17g,%.17g", row->re[k], row->im[k]);
        else
            fputs(",,", f);
    for (int i = 0; i < s->n_params; i++) {
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

/* "list NAMES N points fnv1a64=HASH": the points of a list, by a hash of
 * the swept names and values (malloc'd; NULL: out of memory). */
static char *list_points(const hes_sweep_file *s)
{
    char *text = NULL, v[32];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    uint64_t h = SWEEP_FILE_FNV_START;
    fputs("list ", f);
    for (int j = 0; j < s->n_swept; j++) {
        const char *name = s->param_names[s->swept[j]];
        fprintf(f, "%s%s", j ? "," : "", name);
        h = hes__sweep_file_fnv1a64(h, name, strlen(name) + 1);
    }
    for (size_t i = 0; i < (size_t)s->n_points * s->n_swept; i++) {
        int n = snprintf(v, sizeof v, "%.17g", s->values[i]);
        h = hes__sweep_file_fnv1a64(h, v, (size_t)n + 1);
    }
    fprintf(f, " %d point%s fnv1a64=%016" PRIx64, s->n_points, s->n_points == 1 ? "" : "s", h);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The '#' lines and header of this sweep's file (malloc'd; NULL: out of
 * memory). */
static char *preamble(const hes_sweep_file *s, const hes_system *proto, const char *points,
                      const char *version, int optimize)
{
    const char *names[HES_SWEEP_MAX_PARAMS];
    double vals[HES_SWEEP_MAX_PARAMS];
    int n = 0;
    for (int i = 0; i < s->n_params; i++) {
        int swept = 0;
        for (int j = 0; j < s->n_swept; j++)
            swept |= s->swept[j] == i;
        if (!swept) {
            names[n] = s->param_names[i];
            vals[n++] = proto->p[i];
        }
    }
    char *cols = columns(s), *list = points ? NULL : list_points(s);
    sweep_file_id id = { version, s->name, points ? points : list, optimize, n, names, vals,
                         cols };
    char *text = cols && (points || list) ? hes__sweep_file_preamble(&id) : NULL;
    free(cols);
    free(list);
    return text;
}

static void sweep_file_free(hes_sweep_file *s)
{
    if (!s)
        return;
    free(s->label);
    free(s->param_names);
    free(s->swept);
    free(s);
}

/* The file's object for the sweep (no file yet). */
static hes_sweep_file *file_new(const hes_system *proto, const hes_sweep_options *o)
{
    hes_sweep_file *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->name = proto->name;
    s->n_params = proto->n_params < HES_SWEEP_MAX_PARAMS ? proto->n_params
                                                         : HES_SWEEP_MAX_PARAMS;
    s->n_swept = o->n_params;
    s->n_points = o->n_points;
    s->values = o->values;
    s->n_mult = orbit_dim(proto) < HES_SWEEP_MAX_MULT ? orbit_dim(proto) : HES_SWEEP_MAX_MULT;
    s->param_names = malloc(sizeof *s->param_names * (size_t)(s->n_params + 1));
    s->swept = malloc(sizeof *s->swept * (size_t)(s->n_swept + 1));
    if (!s->param_names || !s->swept) {
        sweep_file_free(s);
        return NULL;
    }
    for (int i = 0; i < s->n_params; i++)
        s->param_names[i] = proto->params[i].name;
    memcpy(s->swept, o->params, sizeof *s->swept * (size_t)s->n_swept);
    return s;
}

/* A failure of the file's open or scan: "PATH: why". */
static hes_status path_failed(hes_sweep_file *s, hes_status st, const char *path)
{
    char why[sizeof s->msg];
    snprintf(why, sizeof why, "%s", s->msg);
    return say(s, st, "%s: %s", path, why);
}

/* The path opened and locked; with resume its valid rows kept (marked in
 * skip) and the file cut after them; the '#' lines and header written when
 * it has none. */
static hes_status open_path(hes_sweep_file *s, const hes_sweep_file_options *fo,
                            const char *pre, unsigned char *skip, hes_sweep_file_report *rep)
{
    int fd, st = hes__sweep_file_open(fo->path, fo->resume, &fd, &s->regular, s->msg,
                                      sizeof s->msg);
    long long end = 0;
    if (st != SWEEP_FILE_OK)
        return path_failed(s, st == SWEEP_FILE_IO ? HES_EIO : HES_EINVAL, fo->path);
    snprintf(rep->warning, sizeof rep->warning, "%s", s->msg);
    s->msg[0] = '\0';
    if (fo->resume) {
        int rfd = dup(fd);
        FILE *in = rfd >= 0 ? fdopen(rfd, "r") : NULL;
        sweep_file_points pts = { s->n_points, s->n_swept, s->values };
        sweep_file_scan_result res;
        if (!in) {
            snprintf(s->msg, sizeof s->msg, "%s", strerror(errno));
            st = SWEEP_FILE_IO;
            if (rfd >= 0)
                close(rfd);
        } else {
            st = hes__sweep_file_scan(in, fd, pre, &pts, skip, &res, s->msg, sizeof s->msg);
            fclose(in);
        }
        if (st != SWEEP_FILE_OK) {
            close(fd);
            return path_failed(s, st == SWEEP_FILE_REFUSED ? HES_EINVAL : HES_EIO, fo->path);
        }
        rep->corrupted = res.corrupted;
        rep->duplicates = res.duplicates;
        rep->cut = res.cut;
        rep->kept = res.kept;
        end = res.end;
    }
    if ((s->regular && lseek(fd, (off_t)end, SEEK_SET) < 0) || !(s->f = fdopen(fd, "w"))) {
        close(fd);
        return say(s, HES_EIO, "cannot write %s: %s", fo->path, strerror(errno));
    }
    s->synced = hes__monotonic_seconds();
    if (end == 0 && (fputs(pre, s->f) == EOF || fflush(s->f) != 0 ||
                     (s->regular && fsync(fd) != 0)))
        return write_failed(s);
    return HES_OK;
}

hes_status hes_sweep_file_open(const hes_system *proto, const hes_sweep_options *o,
                               const hes_sweep_file_options *fo, unsigned char *skip,
                               hes_sweep_file **out, hes_sweep_file_report *rep, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        *out = NULL;
    if (rep)
        memset(rep, 0, sizeof *rep);
    if (!proto || !o || !fo || !out || !rep || (o->n_points > 0 && !o->values) ||
        (o->n_params > 0 && !o->params) || o->n_points < 0 || o->n_params < 0 ||
        (!fo->path == !fo->stream) || (fo->resume && (!fo->path || !skip)))
        return hes__say(msg, len, HES_EINVAL, "hes_sweep_file_open: needs a system, the "
                        "sweep's options, a path or a stream (one of them), a report, and "
                        "with resume a path and skip");
    for (int j = 0; j < o->n_params; j++)
        if (o->params[j] < 0 || o->params[j] >= proto->n_params)
            return hes__say(msg, len, HES_EINVAL, "hes_sweep_file_open: swept parameter %d "
                            "has index %d, not one of the model's %d", j, o->params[j],
                            proto->n_params);
    hes_sweep_file *s = file_new(proto, o);
    if (!s || !(s->label = strdup(fo->path ? fo->path
                                           : fo->stream_name ? fo->stream_name : "the stream"))) {
        sweep_file_free(s);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    hes_status st = HES_OK;
    if (fo->stream) { /* the header and the rows only */
        char *cols = columns(s);
        s->f = fo->stream;
        s->stream = 1;
        if (!cols)
            st = say(s, HES_ENOMEM, "out of memory");
        else if (fprintf(s->f, "%s\n", cols) < 0 || fflush(s->f) != 0)
            st = write_failed(s);
        free(cols);
    } else {
        char *pre = preamble(s, proto, fo->points, fo->version ? fo->version : PACKAGE_VERSION,
                             o->optimize);
        st = pre ? open_path(s, fo, pre, skip, rep) : say(s, HES_ENOMEM, "out of memory");
        free(pre);
    }
    if (st != HES_OK) {
        if (s->f && !s->stream)
            fclose(s->f);
        hes__say(msg, len, st, "%s", s->msg);
        sweep_file_free(s);
        return st;
    }
    *out = s;
    return HES_OK;
}

hes_status hes_sweep_file_put(hes_sweep_file *s, const hes_sweep_row *row)
{
    if (!s || !row || row->index < 0 || row->index >= s->n_points)
        return s ? say(s, HES_EINVAL, "hes_sweep_file_put: no row, or an index outside the "
                       "sweep's points") : HES_EINVAL;
    if (s->failed)
        return HES_EIO;
    size_t len;
    char *text = row_text(s, row, &len);
    if (!text)
        return say(s, HES_ENOMEM, "out of memory");
    int bad = hes__sweep_file_put_row(s->f, text, len);
    free(text);
    if (bad)
        return write_failed(s);
    if (s->regular && hes__monotonic_seconds() - s->synced >= 1.0) {
        /* durable, at most a second behind */
        if (fsync(fileno(s->f)) != 0)
            return write_failed(s);
        s->synced = hes__monotonic_seconds();
    }
    return HES_OK;
}

const char *hes_sweep_file_errmsg(const hes_sweep_file *s)
{
    return s ? s->msg : "no sweep file (NULL)";
}

hes_status hes_sweep_file_close(hes_sweep_file *s, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!s)
        return HES_OK;
    hes_status st = s->failed ? HES_EIO : HES_OK;
    if (!s->stream) {
        errno = 0;
        if (st == HES_OK && ((fflush(s->f) != 0) || (s->regular && fsync(fileno(s->f)) != 0)))
            st = write_failed(s);
        if (fclose(s->f) != 0 && st == HES_OK)
            st = write_failed(s);
    } else if (st == HES_OK && (fflush(s->f) != 0 || ferror(s->f))) {
        st = write_failed(s);
    }
    if (st != HES_OK)
        hes__say(msg, len, st, "%s", s->msg);
    sweep_file_free(s);
    return st;
}

/* hes_sweep_run_file's row callback: the file first, then the caller's. */
typedef struct {
    hes_sweep_file *file;
    int (*row)(void *ctx, const hes_sweep_row *row);
    void *ctx;
} file_writer;

static int put_then_pass(void *ctx, const hes_sweep_row *row)
{
    file_writer *w = ctx;
    if (hes_sweep_file_put(w->file, row) != HES_OK)
        return -1;
    return w->row ? w->row(w->ctx, row) : 0;
}

hes_status hes_sweep_run_file(const hes_system *proto, const hes_sweep_options *o,
                              const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                              hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!o || o->next_block)
        return hes__say(msg, len, HES_EINVAL, "hes_sweep_run_file: needs options, without "
                        "next_block (its rows would not come in index order)");
    unsigned char *skip = calloc((size_t)(o->n_points > 0 ? o->n_points : 1), 1);
    if (!skip)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (o->skip)
        memcpy(skip, o->skip, (size_t)o->n_points);
    hes_sweep_file *file;
    hes_status st = hes_sweep_file_open(proto, o, fo, skip, &file, rep, err);
    if (st != HES_OK) {
        free(skip);
        return st;
    }
    file_writer w = { file, o->row, o->ctx };
    hes_sweep_options run = *o;
    run.skip = skip;
    run.row = put_then_pass;
    run.ctx = &w;
    st = hes_sweep_run_system(proto, &run, err);
    if (file->failed) /* the file's failure is the reason the sweep stopped */
        st = hes__say(msg, len, HES_EIO, "%s", file->msg);
    hes_status cs = hes_sweep_file_close(file, st == HES_OK ? err : NULL);
    free(skip);
    return st != HES_OK ? st : cs;
}
