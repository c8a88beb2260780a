/*
 * sweep_file.c - the file of `hes sweep -o FILE.csv` (format 1, see
 * sweep_file.h): its '#' lines that say what defines the sweep, rows that
 * end with their CRC-32, the exclusive lock of a writer, and the --resume
 * scan that keeps exactly the valid rows of this sweep (rewriting the file
 * in place when it drops one in the middle) or refuses another sweep's
 * file with the first difference named.
 */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/csv_line.h"
#include "batch/sweep_file.h"

/* At most this many '#' lines are read before a file is called foreign. */
#define MAX_HASH_LINES 4096

/* ------------------------------------------------------------- writing */

void hes_format_double(char *buf, size_t len, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v || !isfinite(v)) {
            int exp = v != 0 && isfinite(v) ? (int)floor(log10(fabs(v))) : 0;
            if (exp >= prec && exp < 17) /* 500, not 5e+02 */
                snprintf(buf, len, "%.*g", exp + 1, v);
            return;
        }
    }
}

uint32_t hes__sweep_file_crc32(uint32_t crc, const void *data, size_t n)
{
    /* reflected polynomial 0xedb88320, four bits at a time */
    static const uint32_t nibble[16] = {
        0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
        0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
        0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
    };
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ nibble[crc & 15];
        crc = (crc >> 4) ^ nibble[crc & 15];
    }
    return ~crc;
}

uint64_t hes__sweep_file_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

char *hes__sweep_file_preamble(const sweep_file_id *id)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    fprintf(f, "%s\n# hes: %s\n# problem: %s\n# points: %s\n# optimize: %s\n",
            SWEEP_FILE_FIRST_LINE, id->version, id->problem, id->points, id->optimize ? "yes" : "no");
    for (int j = 0; j < id->n_params; j++) {
        char v[32];
        hes_format_double(v, sizeof v, id->param_values[j]);
        fprintf(f, "# param: %s=%s\n", id->param_names[j], v);
    }
    fprintf(f, "# crc32: the last column, CRC-32 of the row's text before its last comma\n%s\n",
            id->columns);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int hes__sweep_file_put_row(FILE *f, const char *text, size_t len)
{
    uint32_t crc = hes__sweep_file_crc32(0, text, len);
    if (fwrite(text, 1, len, f) != len || fprintf(f, ",%08" PRIx32 "\n", crc) < 0 || fflush(f) != 0)
        return -1;
    return 0;
}

int hes__sweep_file_open(const char *path, int resume, int *fd, int *regular, char *msg, size_t len)
{
    struct stat st;
    msg[0] = '\0';
    /* a file to resume is an input too: opened without blocking (a FIFO),
       refused unless regular and at most SWEEP_FILE_MAX bytes, then
       blocking again */
    *fd = open(path, (resume ? O_RDWR | O_NONBLOCK : O_WRONLY) | O_CREAT | O_CLOEXEC, 0666);
    if (*fd < 0)
        return hes__csv_message(SWEEP_FILE_IO, msg, len, "cannot open it for writing: %s", strerror(errno));
    if (fstat(*fd, &st) != 0) {
        int e = errno;
        close(*fd);
        return hes__csv_message(SWEEP_FILE_IO, msg, len, "%s", strerror(e));
    }
    *regular = S_ISREG(st.st_mode);
    if (resume && !*regular) {
        close(*fd);
        return hes__csv_message(SWEEP_FILE_REFUSED, msg, len, "not a regular file (--resume reads the rows back)");
    }
    if (resume && (unsigned long long)st.st_size > SWEEP_FILE_MAX) {
        close(*fd);
        return hes__csv_message(SWEEP_FILE_REFUSED, msg, len, "%lld bytes, more than the %llu bytes "
                           "a file to resume may have", (long long)st.st_size,
                           (unsigned long long)SWEEP_FILE_MAX);
    }
    int flags = resume ? fcntl(*fd, F_GETFL) : 0;
    if (flags < 0 || (resume && fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
        int e = errno;
        close(*fd);
        return hes__csv_message(SWEEP_FILE_IO, msg, len, "%s", strerror(e));
    }
    if (*regular && flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            close(*fd);
            return hes__csv_message(SWEEP_FILE_LOCKED, msg, len, "locked by another hes process (a sweep is "
                       "writing it); wait for it to end or choose another file");
        }
        hes__csv_message(SWEEP_FILE_OK, msg, len, "cannot lock it (%s): do not let two sweeps write it",
            strerror(errno));
    }
    if (!resume && *regular && ftruncate(*fd, 0) != 0) {
        int e = errno;
        close(*fd);
        return hes__csv_message(SWEEP_FILE_IO, msg, len, "cannot empty it: %s", strerror(e));
    }
    return SWEEP_FILE_OK;
}

/* ------------------------------------------------------------- reading */

/* A copy of a line of the file, printable: control bytes become '?'. */
static char *printable_copy(const csv_line *l)
{
    char *s = malloc(l->len + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < l->len; i++) {
        unsigned char c = (unsigned char)l->text[i];
        s[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    s[l->len] = '\0';
    return s;
}

/* The value of the first line "# KEY: VALUE" among n lines, or NULL. */
static const char *value_of(char *const *lines, int n, const char *key)
{
    size_t k = strlen(key);
    for (int i = 0; i < n; i++)
        if (strncmp(lines[i], "# ", 2) == 0 && strncmp(lines[i] + 2, key, k) == 0 &&
            strncmp(lines[i] + 2 + k, ": ", 2) == 0)
            return lines[i] + 4 + k;
    return NULL;
}

/* The value of "# param: NAME=VALUE" among n lines (name_len bytes of
 * name), or NULL. */
static const char *param_of(char *const *lines, int n, const char *name, size_t name_len)
{
    for (int i = 0; i < n; i++)
        if (strncmp(lines[i], "# param: ", 9) == 0 && strncmp(lines[i] + 9, name, name_len) == 0 &&
            lines[i][9 + name_len] == '=')
            return lines[i] + 10 + name_len;
    return NULL;
}

/* Compares one "# KEY:" line; 1 (msg set) when they differ. */
static int key_differs(char *const *file, int nf, char *const *run, int nr, const char *key,
                       char *msg, size_t len)
{
    const char *a = value_of(file, nf, key), *b = value_of(run, nr, key);
    if (!b || (a && strcmp(a, b) == 0))
        return 0;
    if (!a)
        hes__csv_message(0, msg, len, "the file has no '# %s:' line", key);
    else if (strcmp(key, "problem") == 0)
        hes__csv_message(0, msg, len, "the file is a sweep of problem '%.100s', this run's problem is '%s'", a, b);
    else if (strcmp(key, "points") == 0)
        hes__csv_message(0, msg, len, "the file's points are '%.200s', this run's are '%s'", a, b);
    else if (strcmp(key, "optimize") == 0)
        hes__csv_message(0, msg, len, "the file was written %s --optimize, this run is %s it",
            strcmp(a, "yes") == 0 ? "with" : "without", strcmp(b, "yes") == 0 ? "with" : "without");
    else if (strcmp(key, "hes") == 0)
        hes__csv_message(0, msg, len, "the file was written by hes %.100s, this is hes %s", a, b);
    else
        hes__csv_message(0, msg, len, "the file has '# %s: %.100s', this run has '# %s: %s'", key, a, key, b);
    return 1;
}

/* Why the file's '#' lines and header (nf lines) are not this run's (the
 * preamble split into nr lines): the first difference, in words. */
static void explain(char *const *file, int nf, char *const *run, int nr, char *msg, size_t len)
{
    static const char *const keys[] = {"problem", "points", "optimize"};
    if (strcmp(file[0], run[0]) != 0) {
        if (strncmp(file[0], "# hes sweep file, format ", 25) == 0)
            hes__csv_message(0, msg, len, "the file is in format %.20s; this hes reads format 1", file[0] + 25);
        else if (strncmp(file[0], "index,", 6) == 0)
            hes__csv_message(0, msg, len, "the file has no '%s' lines: it was written by an older hes or "
                "to standard output, and cannot be resumed (start a new file)", SWEEP_FILE_FIRST_LINE);
        else
            hes__csv_message(0, msg, len, "not a file of 'hes sweep -o' (its first line is not '%s')",
                SWEEP_FILE_FIRST_LINE);
        return;
    }
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (key_differs(file, nf, run, nr, keys[k], msg, len))
            return;
    for (int i = 0; i < nr; i++) { /* this run's parameters */
        if (strncmp(run[i], "# param: ", 9) != 0)
            continue;
        const char *name = run[i] + 9, *eq = strchr(name, '=');
        const char *v = param_of(file, nf, name, (size_t)(eq - name));
        if (!v) {
            hes__csv_message(0, msg, len, "this run has %s, the file has no value for %.*s (it sweeps it, or it "
                "is another model)", name, (int)(eq - name), name);
            return;
        }
        if (strcmp(v, eq + 1) != 0) {
            hes__csv_message(0, msg, len, "the file was written with -p %.*s=%.60s, this run has %s",
                (int)(eq - name), name, v, name);
            return;
        }
    }
    for (int i = 0; i < nf; i++) { /* the file's */
        if (strncmp(file[i], "# param: ", 9) != 0)
            continue;
        const char *name = file[i] + 9, *eq = strchr(name, '=');
        if (!eq || !param_of(run, nr, name, (size_t)(eq - name))) {
            hes__csv_message(0, msg, len, "the file was written with -p %.100s, this run has no such fixed "
                "parameter (it sweeps it, or it is another model)", name);
            return;
        }
    }
    if (key_differs(file, nf, run, nr, "hes", msg, len))
        return;
    for (int i = 0; i < nr && i < nf; i++)
        if (strcmp(file[i], run[i]) != 0) {
            if (run[i][0] != '#')
                hes__csv_message(0, msg, len, "its columns are not this sweep's (line %d: '%.100s')", i + 1, file[i]);
            else
                hes__csv_message(0, msg, len, "its line %d is '%.100s', this run's is '%.100s'", i + 1, file[i],
                    run[i]);
            return;
        }
    hes__csv_message(0, msg, len, "its '#' lines are not this sweep's (line %d)", (nf < nr ? nf : nr) + 1);
}

/* The preamble split at its newlines (in a copy); NULL when out of memory. */
static char **split_lines(const char *text, int *n, char **copy)
{
    int count = 0;
    for (const char *c = text; *c; c++)
        count += *c == '\n';
    char **lines = malloc(sizeof *lines * (size_t)(count + 1));
    *copy = strdup(text);
    if (!lines || !*copy) {
        free(lines);
        free(*copy);
        return NULL;
    }
    *n = 0;
    for (char *s = *copy, *nl; (nl = strchr(s, '\n')); s = nl + 1) {
        *nl = '\0';
        lines[(*n)++] = s;
    }
    return lines;
}

/* One row of this sweep, unchanged: its checksum, its number of fields, its
 * index (in range, written as printed) and swept values as printed. */
static int row_valid(const char *text, size_t len, int n_fields, const sweep_file_points *pts,
                     int *index)
{
    const char *comma = memrchr(text, ',', len);
    if (!comma || text + len - comma != 9)
        return 0;
    uint32_t want = 0;
    for (const char *c = comma + 1; c < text + len; c++) {
        int d = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10 : -1;
        if (d < 0)
            return 0;
        want = want << 4 | (uint32_t)d;
    }
    if (hes__sweep_file_crc32(0, text, (size_t)(comma - text)) != want)
        return 0;
    int commas = 0;
    for (size_t i = 0; i < len; i++)
        commas += text[i] == ',';
    if (commas != n_fields - 1)
        return 0;
    long idx = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9' && c - text < 10; c++)
        idx = 10 * idx + (*c - '0');
    if (c == text || *c != ',' || (text[0] == '0' && c - text > 1) || idx >= pts->n_points)
        return 0;
    for (int j = 0; j < pts->n_swept; j++) {
        char v[40];
        const char *field = c + 1;
        c = strchr(field, ',');
        int n = snprintf(v, sizeof v, "%.17g", pts->values[(size_t)idx * pts->n_swept + j]);
        if (!c || c - field != n || memcmp(field, v, (size_t)n) != 0)
            return 0;
    }
    *index = (int)idx;
    return 1;
}

static int write_all(int fd, const char *p, size_t n, long long off)
{
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
        off += w;
    }
    return 0;
}

int hes__sweep_file_scan(FILE *in, int fd, const char *preamble, const sweep_file_points *pts,
                    unsigned char *skip, sweep_file_scan_result *res, char *msg, size_t len)
{
    size_t pre_len = strlen(preamble);
    char **file = NULL, **run = NULL, *run_copy = NULL;
    int nf = 0, nr = 0, rc = 0, prefix = 1, header = 0, status = SWEEP_FILE_OK;
    csv_line l;
    memset(res, 0, sizeof *res);
    msg[0] = '\0';
    hes__csv_line_init(&l);
    if (!(file = malloc(sizeof *file * (MAX_HASH_LINES + 1)))) {
        status = hes__csv_message(SWEEP_FILE_IO, msg, len, "out of memory");
        goto done;
    }
    /* the '#' lines and the header: this run's, or a prefix of them */
    while (nf <= MAX_HASH_LINES && (rc = hes__csv_line_read(in, &l)) == 1) {
        if (prefix && (l.too_long || l.has_nul || (size_t)l.start + l.len > pre_len ||
                       memcmp(preamble + l.start, l.text, l.len) != 0 ||
                       (l.newline && preamble[l.start + l.len] != '\n')))
            prefix = 0;
        if (!(file[nf++] = printable_copy(&l))) {
            status = hes__csv_message(SWEEP_FILE_IO, msg, len, "out of memory");
            goto done;
        }
        if (l.text[0] != '#' || l.has_nul) {
            header = l.newline;
            break;
        }
    }
    if (rc < 0) {
        status = hes__csv_message(SWEEP_FILE_IO, msg, len, "%s", strerror(errno));
        goto done;
    }
    if (nf == 0 || (prefix && !header && (rc == 0 || !l.newline))) { /* empty, or cut in its '#' lines */
        res->fresh = 1;
        if (fd >= 0 && (ftruncate(fd, 0) != 0 || fsync(fd) != 0))
            status = hes__csv_message(SWEEP_FILE_IO, msg, len, "cannot empty it: %s", strerror(errno));
        goto done;
    }
    if (!prefix || (size_t)l.next != pre_len) {
        if (!(run = split_lines(preamble, &nr, &run_copy)))
            status = hes__csv_message(SWEEP_FILE_IO, msg, len, "out of memory");
        else
            explain(file, nf, run, nr, msg, len);
        status = status ? status : SWEEP_FILE_REFUSED;
        goto done;
    }
    /* the rows */
    int n_fields = 1, changed = 0;
    for (const char *c = preamble + pre_len - 1; c > preamble && c[-1] != '\n'; c--)
        n_fields += c[-1] == ',';
    long long end = (long long)pre_len;
    while ((rc = hes__csv_line_read(in, &l)) == 1) {
        int idx = -1;
        if (!l.newline) {
            res->cut = 1;
        } else if (l.too_long || l.has_nul || !row_valid(l.text, l.len, n_fields, pts, &idx)) {
            res->corrupted++;
        } else if (skip[idx]) {
            res->duplicates++;
        } else {
            skip[idx] = 1;
            res->kept++;
            if (fd >= 0 && end != l.start) { /* move it up over the dropped rows */
                l.text[l.len] = '\n';
                int w = write_all(fd, l.text, l.len + 1, end);
                l.text[l.len] = '\0';
                if (w != 0) {
                    status = hes__csv_message(SWEEP_FILE_IO, msg, len, "cannot rewrite it: %s", strerror(errno));
                    goto done;
                }
            }
            end += (long long)l.len + 1;
            continue;
        }
        changed = 1;
    }
    if (rc < 0) {
        status = hes__csv_message(SWEEP_FILE_IO, msg, len, "%s", strerror(errno));
        goto done;
    }
    if (fd >= 0 && changed && (ftruncate(fd, (off_t)end) != 0 || fsync(fd) != 0)) {
        status = hes__csv_message(SWEEP_FILE_IO, msg, len, "cannot rewrite it: %s", strerror(errno));
        goto done;
    }
    res->end = end;
done:
    for (int i = 0; i < nf; i++)
        free(file[i]);
    free(file);
    free(run);
    free(run_copy);
    hes__csv_line_free(&l);
    return status;
}
