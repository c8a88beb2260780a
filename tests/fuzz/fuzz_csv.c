/*
 * fuzz_csv.c - libFuzzer target of the CSV readers of the hes program: the
 * bytes as a `hes sweep --list` file (point_list_read) and as a `--resume`
 * file (sweep_file_scan, rewriting a memfd in place), against a fixed
 * sweep (the seeds' slip-hopper grid K=0:0.4:4 x thetadot=-1:1:4) and
 * against the file's own '#' lines and header, so that the rows are read
 * whatever the mutation did to the lines above them.  Besides the
 * sanitizers it checks what the readers promise: a list has at least one
 * point of finite numbers; a refused file is left as it was; a kept file
 * is exactly as long as the scan says, and scanning it again keeps the same
 * rows and drops nothing.  src/csv_line.c, src/point_list.c and
 * src/sweep_file.c are compiled into the target.  Built by `make fuzz`;
 * seeds in tests/fuzz/corpus_csv.
 */
#define _GNU_SOURCE /* memfd_create */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "point_list.h"
#include "batch/sweep_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define N_POINTS 16

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_csv: broken promise: %s\n", what);
        abort();
    }
}

/* A FILE reading the memfd from its start (a descriptor of its own). */
static FILE *reader(int fd)
{
    check(lseek(fd, 0, SEEK_SET) == 0, "lseek"); /* (the offset is shared with dups) */
    FILE *f = fdopen(dup(fd), "r");
    check(f != NULL, "fdopen");
    return f;
}

static void put(int fd, const uint8_t *data, size_t size)
{
    check(ftruncate(fd, 0) == 0 && (size == 0 || pwrite(fd, data, size, 0) == (ssize_t)size),
          "write the memfd");
    check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
}

static void list(int fd, const uint8_t *data, size_t size)
{
    point_list pl;
    char msg[512];
    put(fd, data, size);
    FILE *f = reader(fd);
    int rc = point_list_read(f, &pl, msg, sizeof msg);
    fclose(f);
    if (rc != POINT_LIST_OK) {
        check(msg[0] != '\0', "a refused list says why");
        return;
    }
    check(pl.n_names >= 1 && pl.n_names <= POINT_LIST_MAX_NAMES && pl.n_points >= 1, "list shape");
    for (size_t i = 0; i < (size_t)pl.n_points * pl.n_names; i++)
        check(isfinite(pl.values[i]), "finite list values");
    point_list_free(&pl);
}

static void resume(int fd, const uint8_t *data, size_t size, const char *preamble)
{
    double values[2 * N_POINTS];
    for (int i = 0; i < N_POINTS; i++) { /* as hes sweep computes a grid */
        values[2 * i] = 0 + (0.4 - 0) * (i / 4) / (4 - 1);
        values[2 * i + 1] = -1 + (1 - -1) * (i % 4) / (4 - 1);
    }
    sweep_file_points pts = { N_POINTS, 2, values };
    unsigned char skip[N_POINTS], skip2[N_POINTS];
    sweep_file_scan_result res, res2;
    char msg[1024];
    struct stat st;

    put(fd, data, size);
    memset(skip, 0, sizeof skip);
    FILE *f = reader(fd);
    int rc = hes__sweep_file_scan(f, fd, preamble, &pts, skip, &res, msg, sizeof msg);
    fclose(f);
    check(rc == SWEEP_FILE_OK || rc == SWEEP_FILE_REFUSED, "scan result");
    check(fstat(fd, &st) == 0, "fstat");
    if (rc == SWEEP_FILE_REFUSED) {
        check(msg[0] != '\0', "a refused file says why");
        check((size_t)st.st_size == size, "a refused file keeps its length");
        if (size > 0) {
            uint8_t *back = malloc(size);
            check(back && pread(fd, back, size, 0) == (ssize_t)size &&
                  memcmp(back, data, size) == 0, "a refused file keeps its bytes");
            free(back);
        }
        return;
    }
    int marked = 0;
    for (int i = 0; i < N_POINTS; i++)
        marked += skip[i];
    check(marked == res.kept, "kept rows mark their points");
    check(st.st_size == res.end, "the file ends where the scan says");
    check(!res.fresh || res.end == 0, "a fresh file is empty");

    memset(skip2, 0, sizeof skip2);
    f = reader(fd);
    rc = hes__sweep_file_scan(f, fd, preamble, &pts, skip2, &res2, msg, sizeof msg);
    fclose(f);
    check(rc == SWEEP_FILE_OK, "a kept file scans again");
    check(res2.kept == res.kept && memcmp(skip, skip2, sizeof skip) == 0, "the same rows again");
    check(res2.corrupted == 0 && res2.duplicates == 0 && res2.cut == 0, "nothing left to drop");
    check(res2.end == res.end, "the same length again");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1; /* one file for every input (the harness's own state) */
    static char *fixed;  /* the seeds' sweep */
    if (fd < 0) {
        static const char *const names[] = {"m", "g", "l0", "k", "b", "apex_height",
                                             "apex_speed", "l_td", "theta_td"};
        static const double vals[] = {1, 9.81, 1, 500, 1, 2.5, 2, 0.9, 0.2};
        sweep_file_id id = { "0.1.0", "slip-hopper", "grid K=0:0.4:4 thetadot=-1:1:4", 0, 9, names,
                             vals, "index,K,thetadot,status,psi,stable,period,mult1_re,mult1_im,"
                             "mult2_re,mult2_im,mult3_re,mult3_im,p.m,p.g,p.l0,p.k,p.b,"
                             "p.apex_height,p.apex_speed,p.K,p.thetadot,p.l_td,p.theta_td,"
                             "message,crc32" };
        fd = memfd_create("sweep.csv", 0);
        fixed = hes__sweep_file_preamble(&id);
        check(fd >= 0 && fixed != NULL, "set-up");
    }
    list(fd, data, size);
    resume(fd, data, size, fixed);

    /* the file's own '#' lines and header as this run's, if it has them */
    size_t n = 0;
    while (n < size) {
        const uint8_t *nl = memchr(data + n, '\n', size - n);
        if (!nl)
            return 0;
        int hash = data[n] == '#';
        n = (size_t)(nl - data) + 1;
        if (!hash)
            break;
    }
    if (n == 0 || memchr(data, '\0', n))
        return 0;
    char *own = malloc(n + 1);
    check(own != NULL, "malloc");
    memcpy(own, data, n);
    own[n] = '\0';
    resume(fd, data, size, own);
    free(own);
    return 0;
}
