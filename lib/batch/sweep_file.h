/*
 * sweep_file.h - the file `hes sweep -o FILE.csv` writes and `--resume`
 * reads back (format 1):
 *
 *   # hes sweep file, format 1
 *   # hes: VERSION
 *   # problem: NAME
 *   # points: grid NAME=LO:HI:N ... | list NAMES N points fnv1a64=HASH
 *   #         | random N seed=S NAME=LO:HI ...
 *   # optimize: yes|no
 *   # param: NAME=VALUE             (every parameter that is not swept)
 *   # crc32: ...                    (what the last column is)
 *   index,NAME...,status,...,message,crc32
 *   0,...,1c291ca3
 *
 * The '#' lines say what defines the rows; a resumed sweep must match them
 * exactly, or it is refused with the first difference named.  Each row ends
 * with the CRC-32 (ISO-HDLC, as zlib's crc32) of its text before its last
 * comma, in 8 hex digits, so a row with any byte changed is recognised and
 * computed again.  The output is opened with an exclusive lock (flock) that
 * is held until the end, so that two hes processes never write one file.
 *
 * Only the C library (and POSIX): the fuzz target tests/fuzz/fuzz_csv.c
 * compiles it on its own.
 */
#ifndef HES_SWEEP_FILE_H
#define HES_SWEEP_FILE_H

#include <stdint.h>
#include <stdio.h>

#define SWEEP_FILE_FIRST_LINE "# hes sweep file, format 1"

/* Results of the functions below. */
enum {
    SWEEP_FILE_OK = 0,
    SWEEP_FILE_REFUSED = -1,     /* not this sweep's file, or not usable: bad input */
    SWEEP_FILE_LOCKED = -2,      /* another process writes it */
    SWEEP_FILE_IO = -3           /* a read or write failed, or out of memory */
};

/* What defines a sweep. */
typedef struct {
    const char *version;         /* of hes */
    const char *problem;
    const char *points;          /* "grid K=0:0.4:12", ... (sweep_file_format_double) */
    int optimize;
    int n_params;                /* the parameters that are not swept */
    const char *const *param_names;
    const double *param_values;
    const char *columns;         /* the CSV header, without its newline */
} sweep_file_id;

/* The '#' lines and the CSV header of a sweep (each line with its newline),
 * malloc'd; NULL when out of memory. */
char *hes__sweep_file_preamble(const sweep_file_id *id);

/* The shortest "%.*g" text of v that reads back as v (at most 24 bytes). */
void hes_format_double(char *buf, size_t len, double v);

/* CRC-32 (ISO-HDLC) of n bytes, continuing from crc (start with 0). */
uint32_t hes__sweep_file_crc32(uint32_t crc, const void *data, size_t n);

/* FNV-1a, 64 bits, of n bytes, continuing from h (start with
 * SWEEP_FILE_FNV_START). */
#define SWEEP_FILE_FNV_START 0xcbf29ce484222325ULL
uint64_t hes__sweep_file_fnv1a64(uint64_t h, const void *data, size_t n);

/* Writes one row: text (len bytes, no newline, no NUL), a comma, its CRC-32
 * and a newline, then flushes f.  Returns 0, or -1 with errno set. */
int hes__sweep_file_put_row(FILE *f, const char *text, size_t len);

/* The largest file --resume reads back: hes's bound on any input file
 * (HES_INPUT_MAX, lib/hes.h; this file is compiled without libhes for the
 * fuzz targets). */
#define SWEEP_FILE_MAX ((unsigned long long)256 << 20)

/* Opens path for the rows: created if missing, never truncated before it
 * is locked; a regular file is locked (flock, exclusive, without waiting)
 * and, without resume, emptied.  --resume needs a regular file (opened
 * without blocking, at most SWEEP_FILE_MAX bytes).  Returns
 * SWEEP_FILE_OK with *fd (and *regular: 1 for a regular file), or
 * SWEEP_FILE_REFUSED, SWEEP_FILE_LOCKED or SWEEP_FILE_IO with msg saying
 * why.  A file system without locks gives SWEEP_FILE_OK with a warning in
 * msg (msg[0] is '\0' otherwise). */
int hes__sweep_file_open(const char *path, int resume, int *fd, int *regular, char *msg, size_t len);

/* The points of this run, to check each row's index and swept values. */
typedef struct {
    int n_points, n_swept;
    const double *values;        /* n_points x n_swept */
} sweep_file_points;

typedef struct {
    int fresh;                   /* empty, or cut inside its '#' lines: begins anew */
    int kept;                    /* rows kept, their points marked in skip */
    int corrupted;               /* rows dropped: checksum, index or values wrong */
    int duplicates;              /* rows dropped: a point that already had one */
    int cut;                     /* 1: a last row without its newline was dropped */
    long long end;               /* the file's length now: where new rows go */
} sweep_file_scan_result;

/* --resume: reads a sweep file from in (at its start) and checks its '#'
 * lines and header against preamble (sweep_file_preamble of this run);
 * keeps its valid rows (their points get skip[index] = 1; skip holds
 * n_points zeros on entry) and drops the others.  With fd >= 0 (the same
 * file, open for writing) the file is rewritten in place to its kept rows,
 * truncated after them (or to nothing when fresh) and synced; with fd < 0
 * nothing is written.  Returns SWEEP_FILE_OK, SWEEP_FILE_REFUSED (another
 * sweep's file: msg names the first difference) or SWEEP_FILE_IO (msg). */
int hes__sweep_file_scan(FILE *in, int fd, const char *preamble, const sweep_file_points *pts,
                    unsigned char *skip, sweep_file_scan_result *res, char *msg, size_t len);

#endif /* HES_SWEEP_FILE_H */
